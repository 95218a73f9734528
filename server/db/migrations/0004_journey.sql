CREATE TABLE "bank_data_attempt" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "bank_data_attempt_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"client_id" bigint NOT NULL,
	"bank" text NOT NULL,
	"outcome" text NOT NULL,
	"summary" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "client_address" (
	"client_id" bigint PRIMARY KEY NOT NULL,
	"region_code" text NOT NULL,
	"city_code" text NOT NULL,
	"district_code" text NOT NULL,
	"ward_code" text NOT NULL,
	"street" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "client_contact" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "client_contact_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"client_id" bigint NOT NULL,
	"kind" text NOT NULL,
	"full_name" text NOT NULL,
	"relation" text NOT NULL,
	"phone" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "client_geo" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "client_geo_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"client_id" bigint NOT NULL,
	"latitude" double precision NOT NULL,
	"longitude" double precision NOT NULL,
	"accuracy" double precision,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "client_journey" (
	"client_id" bigint PRIMARY KEY NOT NULL,
	"snapshot" jsonb NOT NULL,
	"step" text NOT NULL,
	"version" integer DEFAULT 0 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "client_profile" (
	"client_id" bigint PRIMARY KEY NOT NULL,
	"first_name" text NOT NULL,
	"middle_name" text,
	"last_name" text NOT NULL,
	"birth_date" date NOT NULL,
	"gender" text NOT NULL,
	"civil_status" text NOT NULL,
	"details_source" text DEFAULT 'client' NOT NULL,
	"details_confirmed_at" timestamp with time zone,
	"employment_type" text,
	"company_name" text,
	"monthly_income" bigint,
	"monthly_expenses" bigint,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "disbursement_entry" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "disbursement_entry_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"client_id" bigint NOT NULL,
	"type" text NOT NULL,
	"institution_id" integer,
	"account_number" text,
	"provider" text,
	"selected" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "identity_document" (
	"client_id" bigint PRIMARY KEY NOT NULL,
	"document_type" text NOT NULL,
	"document_number" text NOT NULL,
	"expiry_date" date,
	"finished_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "uploaded_file" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"client_id" bigint NOT NULL,
	"category" text NOT NULL,
	"kind" text NOT NULL,
	"mime" text NOT NULL,
	"size" integer NOT NULL,
	"sha256" text NOT NULL,
	"storage_name" text NOT NULL,
	"captured_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "verification_session" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"client_id" bigint NOT NULL,
	"provider" text NOT NULL,
	"provider_ref" text NOT NULL,
	"url" text NOT NULL,
	"status" text NOT NULL,
	"reason" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"decided_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "bank_data_attempt" ADD CONSTRAINT "bank_data_attempt_client_id_client_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."client"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "client_address" ADD CONSTRAINT "client_address_client_id_client_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."client"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "client_contact" ADD CONSTRAINT "client_contact_client_id_client_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."client"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "client_geo" ADD CONSTRAINT "client_geo_client_id_client_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."client"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "client_journey" ADD CONSTRAINT "client_journey_client_id_client_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."client"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "client_profile" ADD CONSTRAINT "client_profile_client_id_client_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."client"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "disbursement_entry" ADD CONSTRAINT "disbursement_entry_client_id_client_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."client"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "identity_document" ADD CONSTRAINT "identity_document_client_id_client_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."client"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "uploaded_file" ADD CONSTRAINT "uploaded_file_client_id_client_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."client"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "verification_session" ADD CONSTRAINT "verification_session_client_id_client_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."client"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "bank_data_attempt_client_idx" ON "bank_data_attempt" USING btree ("client_id","outcome");--> statement-breakpoint
CREATE INDEX "client_contact_client_idx" ON "client_contact" USING btree ("client_id");--> statement-breakpoint
CREATE INDEX "client_geo_client_idx" ON "client_geo" USING btree ("client_id");--> statement-breakpoint
CREATE INDEX "client_journey_step_idx" ON "client_journey" USING btree ("step");--> statement-breakpoint
CREATE INDEX "disbursement_entry_client_idx" ON "disbursement_entry" USING btree ("client_id");--> statement-breakpoint
CREATE UNIQUE INDEX "disbursement_account_uq" ON "disbursement_entry" USING btree ("client_id","type","institution_id","account_number") WHERE "disbursement_entry"."type" in ('bank_transfer', 'ewallet');--> statement-breakpoint
CREATE UNIQUE INDEX "disbursement_cash_card_uq" ON "disbursement_entry" USING btree ("account_number") WHERE "disbursement_entry"."type" = 'cash_card';--> statement-breakpoint
CREATE UNIQUE INDEX "disbursement_cash_pickup_uq" ON "disbursement_entry" USING btree ("client_id","provider") WHERE "disbursement_entry"."type" = 'cash_pickup';--> statement-breakpoint
CREATE UNIQUE INDEX "disbursement_selected_uq" ON "disbursement_entry" USING btree ("client_id") WHERE "disbursement_entry"."selected";--> statement-breakpoint
CREATE INDEX "uploaded_file_client_idx" ON "uploaded_file" USING btree ("client_id","category");--> statement-breakpoint
CREATE UNIQUE INDEX "uploaded_file_live_id_photo_uq" ON "uploaded_file" USING btree ("client_id","kind") WHERE "uploaded_file"."category" = 'id_document' and "uploaded_file"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "verification_session_client_idx" ON "verification_session" USING btree ("client_id","created_at");