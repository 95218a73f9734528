CREATE TABLE "application" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "application_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"client_id" bigint NOT NULL,
	"status" smallint NOT NULL,
	"desired_amount" bigint NOT NULL,
	"desired_term" integer NOT NULL,
	"principal_amount" bigint NOT NULL,
	"term" integer NOT NULL,
	"offered_amount" bigint,
	"package_fee_consent" boolean NOT NULL,
	"promo_code" text,
	"payment_method" text NOT NULL,
	"client_kind" text NOT NULL,
	"iovation_blackbox" text,
	"affiliate" jsonb,
	"marketing" jsonb,
	"idempotency_key" text,
	"disbursement_entry_id" bigint,
	"cash_pickup_number" text,
	"accepted_offer" jsonb,
	"version" integer DEFAULT 1 NOT NULL,
	"signed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "application_decision" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "application_decision_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"application_id" bigint NOT NULL,
	"source" text NOT NULL,
	"outcome" text NOT NULL,
	"application_version" integer NOT NULL,
	"rules" jsonb NOT NULL,
	"inputs" jsonb NOT NULL,
	"reasons" jsonb NOT NULL,
	"offered_amount" bigint,
	"decided_by" bigint,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "disbursement" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "disbursement_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"application_id" bigint NOT NULL,
	"client_id" bigint NOT NULL,
	"entry_id" bigint NOT NULL,
	"type" text NOT NULL,
	"amount" bigint NOT NULL,
	"status" text NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"provider_ref" text,
	"cash_pickup_number" text,
	"failure_reason" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"completed_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "lending_job" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "lending_job_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"kind" text NOT NULL,
	"application_id" bigint NOT NULL,
	"run_at" timestamp with time zone NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"locked_until" timestamp with time zone,
	"done_at" timestamp with time zone,
	"last_error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "loan" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "loan_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"client_id" bigint NOT NULL,
	"application_id" bigint NOT NULL,
	"status" smallint NOT NULL,
	"principal" bigint NOT NULL,
	"interest" bigint NOT NULL,
	"fees" bigint NOT NULL,
	"total" bigint NOT NULL,
	"term" integer NOT NULL,
	"fee_lines" jsonb NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"due_date" date NOT NULL,
	"final_closing_date" date NOT NULL
);
--> statement-breakpoint
CREATE TABLE "loan_document" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"application_id" bigint NOT NULL,
	"client_id" bigint NOT NULL,
	"type" text NOT NULL,
	"application_version" integer NOT NULL,
	"content" "bytea" NOT NULL,
	"sha256" text NOT NULL,
	"size" integer NOT NULL,
	"rendered_at" timestamp with time zone NOT NULL,
	"signed_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "application" ADD CONSTRAINT "application_client_id_client_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."client"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "application" ADD CONSTRAINT "application_disbursement_entry_id_disbursement_entry_id_fk" FOREIGN KEY ("disbursement_entry_id") REFERENCES "public"."disbursement_entry"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "application_decision" ADD CONSTRAINT "application_decision_application_id_application_id_fk" FOREIGN KEY ("application_id") REFERENCES "public"."application"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "disbursement" ADD CONSTRAINT "disbursement_application_id_application_id_fk" FOREIGN KEY ("application_id") REFERENCES "public"."application"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "disbursement" ADD CONSTRAINT "disbursement_client_id_client_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."client"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "disbursement" ADD CONSTRAINT "disbursement_entry_id_disbursement_entry_id_fk" FOREIGN KEY ("entry_id") REFERENCES "public"."disbursement_entry"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lending_job" ADD CONSTRAINT "lending_job_application_id_application_id_fk" FOREIGN KEY ("application_id") REFERENCES "public"."application"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "loan" ADD CONSTRAINT "loan_client_id_client_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."client"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "loan" ADD CONSTRAINT "loan_application_id_application_id_fk" FOREIGN KEY ("application_id") REFERENCES "public"."application"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "loan_document" ADD CONSTRAINT "loan_document_application_id_application_id_fk" FOREIGN KEY ("application_id") REFERENCES "public"."application"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "loan_document" ADD CONSTRAINT "loan_document_client_id_client_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."client"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "application_one_active_per_client_uq" ON "application" USING btree ("client_id") WHERE "application"."status" not in (4, 5, 6, 23);--> statement-breakpoint
CREATE UNIQUE INDEX "application_idempotency_uq" ON "application" USING btree ("client_id","idempotency_key") WHERE "application"."idempotency_key" is not null;--> statement-breakpoint
CREATE INDEX "application_client_idx" ON "application" USING btree ("client_id","created_at");--> statement-breakpoint
CREATE INDEX "application_decision_app_idx" ON "application_decision" USING btree ("application_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "disbursement_application_uq" ON "disbursement" USING btree ("application_id");--> statement-breakpoint
CREATE UNIQUE INDEX "lending_job_kind_app_uq" ON "lending_job" USING btree ("kind","application_id");--> statement-breakpoint
CREATE INDEX "lending_job_due_idx" ON "lending_job" USING btree ("run_at") WHERE "lending_job"."done_at" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "loan_application_uq" ON "loan" USING btree ("application_id");--> statement-breakpoint
CREATE INDEX "loan_client_idx" ON "loan" USING btree ("client_id","status");--> statement-breakpoint
CREATE UNIQUE INDEX "loan_document_app_type_uq" ON "loan_document" USING btree ("application_id","type");--> statement-breakpoint
CREATE INDEX "loan_document_client_idx" ON "loan_document" USING btree ("client_id");