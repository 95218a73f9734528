CREATE TABLE "clock_offset" (
	"scope" text PRIMARY KEY NOT NULL,
	"offset_days" integer NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "credit_refund" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "credit_refund_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"loan_id" bigint NOT NULL,
	"client_id" bigint NOT NULL,
	"amount" bigint NOT NULL,
	"entry_id" bigint,
	"status" text NOT NULL,
	"provider_ref" text,
	"failure_reason" text,
	"created_at" timestamp with time zone NOT NULL,
	"completed_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "loan_ledger_entry" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "loan_ledger_entry_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"loan_id" bigint NOT NULL,
	"client_id" bigint NOT NULL,
	"kind" text NOT NULL,
	"part" text NOT NULL,
	"amount" bigint NOT NULL,
	"payment_id" bigint,
	"refund_id" bigint,
	"reverses_id" bigint,
	"business_date" date NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"memo" text,
	CONSTRAINT "loan_ledger_part_ck" CHECK ("loan_ledger_entry"."part" in ('principal', 'interest', 'fees', 'penalties', 'credit'))
);
--> statement-breakpoint
CREATE TABLE "payment" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "payment_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"provider" text NOT NULL,
	"provider_payment_id" text NOT NULL,
	"reference" text NOT NULL,
	"channel" text NOT NULL,
	"amount" bigint NOT NULL,
	"status" text NOT NULL,
	"loan_id" bigint,
	"client_id" bigint,
	"intention_id" bigint,
	"source" text NOT NULL,
	"paid_at" timestamp with time zone NOT NULL,
	"received_at" timestamp with time zone NOT NULL,
	"posted_at" timestamp with time zone,
	"business_date" date,
	"posted_by" bigint,
	"note" text,
	"reversed_at" timestamp with time zone,
	"reversed_by" bigint,
	"reversal_reason" text,
	CONSTRAINT "payment_amount_ck" CHECK ("payment"."amount" > 0),
	CONSTRAINT "payment_status_ck" CHECK ("payment"."status" in ('posted', 'unmatched', 'reversed'))
);
--> statement-breakpoint
CREATE TABLE "payment_event" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "payment_event_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"provider" text NOT NULL,
	"event_id" text NOT NULL,
	"type" text NOT NULL,
	"provider_payment_id" text NOT NULL,
	"payment_id" bigint,
	"outcome" text NOT NULL,
	"received_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "payment_intention" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "payment_intention_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"client_id" bigint NOT NULL,
	"loan_id" bigint NOT NULL,
	"purpose" text NOT NULL,
	"channel" text,
	"amount" bigint NOT NULL,
	"reference" text NOT NULL,
	"status" text NOT NULL,
	"checkout_id" text,
	"checkout_url" text,
	"expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sandbox_charge" (
	"id" text PRIMARY KEY NOT NULL,
	"reference" text NOT NULL,
	"amount" bigint NOT NULL,
	"channel" text NOT NULL,
	"status" text NOT NULL,
	"return_path" text,
	"created_at" timestamp with time zone NOT NULL,
	"settled_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "sandbox_event" (
	"id" text PRIMARY KEY NOT NULL,
	"charge_id" text NOT NULL,
	"type" text NOT NULL,
	"payload" jsonb NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone,
	"delivered_at" timestamp with time zone,
	"last_status" integer
);
--> statement-breakpoint
CREATE TABLE "servicing_action" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "servicing_action_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"action" text NOT NULL,
	"payment_id" bigint,
	"loan_id" bigint,
	"user_id" bigint NOT NULL,
	"reason" text,
	"at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "servicing_day" (
	"day" date PRIMARY KEY NOT NULL,
	"completed_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "servicing_job" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "servicing_job_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"kind" text NOT NULL,
	"subject_id" text NOT NULL,
	"run_at" timestamp with time zone NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"locked_until" timestamp with time zone,
	"done_at" timestamp with time zone,
	"last_error" text,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "loan" ADD COLUMN "state" text DEFAULT 'active' NOT NULL;--> statement-breakpoint
ALTER TABLE "loan" ADD COLUMN "start_date" date;--> statement-breakpoint
ALTER TABLE "loan" ADD COLUMN "disbursed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "loan" ADD COLUMN "accrued_days" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "loan" ADD COLUMN "accrual_basis" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "loan" ADD COLUMN "held_days" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "loan" ADD COLUMN "held_since" date;--> statement-breakpoint
ALTER TABLE "loan" ADD COLUMN "closed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "loan" ADD COLUMN "version" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "credit_refund" ADD CONSTRAINT "credit_refund_loan_id_loan_id_fk" FOREIGN KEY ("loan_id") REFERENCES "public"."loan"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "credit_refund" ADD CONSTRAINT "credit_refund_client_id_client_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."client"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "credit_refund" ADD CONSTRAINT "credit_refund_entry_id_disbursement_entry_id_fk" FOREIGN KEY ("entry_id") REFERENCES "public"."disbursement_entry"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "loan_ledger_entry" ADD CONSTRAINT "loan_ledger_entry_loan_id_loan_id_fk" FOREIGN KEY ("loan_id") REFERENCES "public"."loan"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "loan_ledger_entry" ADD CONSTRAINT "loan_ledger_entry_client_id_client_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."client"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "loan_ledger_entry" ADD CONSTRAINT "loan_ledger_entry_payment_id_payment_id_fk" FOREIGN KEY ("payment_id") REFERENCES "public"."payment"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment" ADD CONSTRAINT "payment_loan_id_loan_id_fk" FOREIGN KEY ("loan_id") REFERENCES "public"."loan"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment" ADD CONSTRAINT "payment_client_id_client_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."client"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_intention" ADD CONSTRAINT "payment_intention_client_id_client_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."client"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_intention" ADD CONSTRAINT "payment_intention_loan_id_loan_id_fk" FOREIGN KEY ("loan_id") REFERENCES "public"."loan"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sandbox_event" ADD CONSTRAINT "sandbox_event_charge_id_sandbox_charge_id_fk" FOREIGN KEY ("charge_id") REFERENCES "public"."sandbox_charge"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "credit_refund_loan_idx" ON "credit_refund" USING btree ("loan_id");--> statement-breakpoint
CREATE UNIQUE INDEX "credit_refund_one_queued_uq" ON "credit_refund" USING btree ("loan_id") WHERE "credit_refund"."status" in ('queued', 'sending');--> statement-breakpoint
CREATE INDEX "loan_ledger_loan_idx" ON "loan_ledger_entry" USING btree ("loan_id","id");--> statement-breakpoint
CREATE INDEX "loan_ledger_payment_idx" ON "loan_ledger_entry" USING btree ("payment_id");--> statement-breakpoint
CREATE UNIQUE INDEX "loan_ledger_reverses_uq" ON "loan_ledger_entry" USING btree ("reverses_id") WHERE "loan_ledger_entry"."reverses_id" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "payment_provider_uq" ON "payment" USING btree ("provider","provider_payment_id");--> statement-breakpoint
CREATE INDEX "payment_loan_idx" ON "payment" USING btree ("loan_id","id");--> statement-breakpoint
CREATE INDEX "payment_client_idx" ON "payment" USING btree ("client_id","id");--> statement-breakpoint
CREATE INDEX "payment_received_idx" ON "payment" USING btree ("received_at");--> statement-breakpoint
CREATE INDEX "payment_unmatched_idx" ON "payment" USING btree ("id") WHERE "payment"."status" = 'unmatched';--> statement-breakpoint
CREATE UNIQUE INDEX "payment_event_uq" ON "payment_event" USING btree ("provider","event_id");--> statement-breakpoint
CREATE INDEX "payment_intention_client_idx" ON "payment_intention" USING btree ("client_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "payment_intention_checkout_uq" ON "payment_intention" USING btree ("checkout_id");--> statement-breakpoint
CREATE INDEX "sandbox_event_due_idx" ON "sandbox_event" USING btree ("next_attempt_at") WHERE "sandbox_event"."delivered_at" is null;--> statement-breakpoint
CREATE INDEX "servicing_action_payment_idx" ON "servicing_action" USING btree ("payment_id");--> statement-breakpoint
CREATE INDEX "servicing_action_loan_idx" ON "servicing_action" USING btree ("loan_id");--> statement-breakpoint
CREATE UNIQUE INDEX "servicing_job_kind_subject_uq" ON "servicing_job" USING btree ("kind","subject_id");--> statement-breakpoint
CREATE INDEX "servicing_job_due_idx" ON "servicing_job" USING btree ("run_at") WHERE "servicing_job"."done_at" is null;--> statement-breakpoint
-- Loans paid out before the ledger existed: their start day, and the entries the payout books today
-- (the principal and each fee line), so their balances derive from the ledger like every other loan's.
UPDATE "loan" SET "start_date" = ("created_at" AT TIME ZONE 'Asia/Manila')::date, "disbursed_at" = "created_at" WHERE "start_date" IS NULL AND "status" = 4;--> statement-breakpoint
INSERT INTO "loan_ledger_entry" ("loan_id", "client_id", "kind", "part", "amount", "business_date", "at", "memo")
SELECT l."id", l."client_id", 'disbursement', 'principal', l."principal", l."start_date", l."created_at", NULL
FROM "loan" l WHERE l."status" = 4 AND NOT EXISTS (SELECT 1 FROM "loan_ledger_entry" e WHERE e."loan_id" = l."id");--> statement-breakpoint
INSERT INTO "loan_ledger_entry" ("loan_id", "client_id", "kind", "part", "amount", "business_date", "at", "memo")
SELECT l."id", l."client_id", 'fee', 'fees', (f.value)::text::bigint, l."start_date", l."created_at", f.key
FROM "loan" l, jsonb_each(l."fee_lines") f
WHERE l."status" = 4 AND (f.value)::text::bigint > 0
  AND NOT EXISTS (SELECT 1 FROM "loan_ledger_entry" e WHERE e."loan_id" = l."id" AND e."kind" = 'fee');
