CREATE TABLE "amendment_document" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "amendment_document_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"loan_id" bigint NOT NULL,
	"client_id" bigint NOT NULL,
	"subject" text NOT NULL,
	"subject_id" bigint NOT NULL,
	"type" text NOT NULL,
	"content" "bytea" NOT NULL,
	"sha256" text NOT NULL,
	"size" integer NOT NULL,
	"figures" jsonb NOT NULL,
	"rendered_at" timestamp with time zone NOT NULL,
	"signed_at" timestamp with time zone,
	CONSTRAINT "amendment_document_subject_ck" CHECK ("amendment_document"."subject" in ('extension', 'schedule'))
);
--> statement-breakpoint
CREATE TABLE "extension_application" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "extension_application_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"extension_id" bigint NOT NULL,
	"loan_id" bigint NOT NULL,
	"client_id" bigint NOT NULL,
	"status" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"signed_at" timestamp with time zone,
	CONSTRAINT "extension_application_status_ck" CHECK ("extension_application"."status" in ('new', 'signed', 'cancelled'))
);
--> statement-breakpoint
CREATE TABLE "loan_extension" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "loan_extension_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"loan_id" bigint NOT NULL,
	"client_id" bigint NOT NULL,
	"type" text NOT NULL,
	"status" text NOT NULL,
	"invoice_status" text NOT NULL,
	"term" integer,
	"fee" bigint,
	"principal_basis" bigint,
	"payable_until" date,
	"chosen_at" timestamp with time zone,
	"signed_at" timestamp with time zone,
	"paid_at" timestamp with time zone,
	"payment_id" bigint,
	"due_date_before" date,
	"due_date_after" date,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "loan_extension_status_ck" CHECK ("loan_extension"."status" in ('inactive', 'active', 'expired')),
	CONSTRAINT "loan_extension_invoice_ck" CHECK ("loan_extension"."invoice_status" in ('draft', 'unpaid', 'paid', 'expired', 'cancelled'))
);
--> statement-breakpoint
CREATE TABLE "payment_schedule" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "payment_schedule_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"loan_id" bigint NOT NULL,
	"client_id" bigint NOT NULL,
	"type" text NOT NULL,
	"status" text NOT NULL,
	"decision" jsonb,
	"owed" bigint,
	"interest" bigint,
	"interest_at_rate" bigint,
	"total" bigint,
	"principal_basis" bigint,
	"days" integer,
	"offered_at" timestamp with time zone NOT NULL,
	"agreed_at" timestamp with time zone,
	"agreed_on" date,
	"completed_at" timestamp with time zone,
	CONSTRAINT "payment_schedule_status_ck" CHECK ("payment_schedule"."status" in ('offered', 'active', 'completed', 'withdrawn'))
);
--> statement-breakpoint
CREATE TABLE "schedule_instalment" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "schedule_instalment_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"schedule_id" bigint NOT NULL,
	"loan_id" bigint NOT NULL,
	"seq" integer NOT NULL,
	"due_date" date NOT NULL,
	"period_start" date NOT NULL,
	"amount" bigint NOT NULL,
	"interest" bigint NOT NULL,
	"paid_amount" bigint DEFAULT 0 NOT NULL,
	"paid_at" timestamp with time zone,
	CONSTRAINT "schedule_instalment_paid_ck" CHECK ("schedule_instalment"."paid_amount" >= 0 and "schedule_instalment"."paid_amount" <= "schedule_instalment"."amount")
);
--> statement-breakpoint
ALTER TABLE "loan" ADD COLUMN "plan" text DEFAULT 'on_terms' NOT NULL;--> statement-breakpoint
ALTER TABLE "amendment_document" ADD CONSTRAINT "amendment_document_loan_id_loan_id_fk" FOREIGN KEY ("loan_id") REFERENCES "public"."loan"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "amendment_document" ADD CONSTRAINT "amendment_document_client_id_client_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."client"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "extension_application" ADD CONSTRAINT "extension_application_extension_id_loan_extension_id_fk" FOREIGN KEY ("extension_id") REFERENCES "public"."loan_extension"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "extension_application" ADD CONSTRAINT "extension_application_loan_id_loan_id_fk" FOREIGN KEY ("loan_id") REFERENCES "public"."loan"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "extension_application" ADD CONSTRAINT "extension_application_client_id_client_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."client"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "loan_extension" ADD CONSTRAINT "loan_extension_loan_id_loan_id_fk" FOREIGN KEY ("loan_id") REFERENCES "public"."loan"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "loan_extension" ADD CONSTRAINT "loan_extension_client_id_client_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."client"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "loan_extension" ADD CONSTRAINT "loan_extension_payment_id_payment_id_fk" FOREIGN KEY ("payment_id") REFERENCES "public"."payment"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_schedule" ADD CONSTRAINT "payment_schedule_loan_id_loan_id_fk" FOREIGN KEY ("loan_id") REFERENCES "public"."loan"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_schedule" ADD CONSTRAINT "payment_schedule_client_id_client_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."client"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "schedule_instalment" ADD CONSTRAINT "schedule_instalment_schedule_id_payment_schedule_id_fk" FOREIGN KEY ("schedule_id") REFERENCES "public"."payment_schedule"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "schedule_instalment" ADD CONSTRAINT "schedule_instalment_loan_id_loan_id_fk" FOREIGN KEY ("loan_id") REFERENCES "public"."loan"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "amendment_document_uq" ON "amendment_document" USING btree ("subject","subject_id","type");--> statement-breakpoint
CREATE INDEX "amendment_document_loan_idx" ON "amendment_document" USING btree ("loan_id");--> statement-breakpoint
CREATE UNIQUE INDEX "extension_application_live_uq" ON "extension_application" USING btree ("extension_id") WHERE "extension_application"."status" in ('new', 'signed');--> statement-breakpoint
CREATE INDEX "loan_extension_loan_idx" ON "loan_extension" USING btree ("loan_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "loan_extension_live_uq" ON "loan_extension" USING btree ("loan_id","type") WHERE "loan_extension"."invoice_status" in ('draft', 'unpaid');--> statement-breakpoint
CREATE INDEX "payment_schedule_loan_idx" ON "payment_schedule" USING btree ("loan_id");--> statement-breakpoint
CREATE UNIQUE INDEX "payment_schedule_offer_uq" ON "payment_schedule" USING btree ("loan_id","type") WHERE "payment_schedule"."status" = 'offered';--> statement-breakpoint
CREATE UNIQUE INDEX "payment_schedule_active_uq" ON "payment_schedule" USING btree ("loan_id") WHERE "payment_schedule"."status" = 'active';--> statement-breakpoint
CREATE UNIQUE INDEX "schedule_instalment_seq_uq" ON "schedule_instalment" USING btree ("schedule_id","seq");--> statement-breakpoint
CREATE INDEX "schedule_instalment_loan_idx" ON "schedule_instalment" USING btree ("loan_id");--> statement-breakpoint
-- Data: the open loans of before issue 17 get their extension drafts (one per type) and their schedule offers
-- (one per type), which every loan gets at its payout from now on.
INSERT INTO "loan_extension" ("loan_id", "client_id", "type", "status", "invoice_status", "created_at")
SELECT l."id", l."client_id", t."type", 'inactive', 'draft', now()
FROM "loan" l CROSS JOIN (VALUES ('cheap'), ('expensive')) AS t("type")
WHERE l."state" IN ('active', 'on_hold');--> statement-breakpoint
INSERT INTO "payment_schedule" ("loan_id", "client_id", "type", "status", "offered_at")
SELECT l."id", l."client_id", t."type", 'offered', now()
FROM "loan" l CROSS JOIN (VALUES ('monthly'), ('semi_monthly')) AS t("type")
WHERE l."state" IN ('active', 'on_hold');
