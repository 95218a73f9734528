CREATE TABLE "collection_contact" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "collection_contact_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"loan_id" bigint NOT NULL,
	"client_id" bigint NOT NULL,
	"kind" text NOT NULL,
	"channel" text NOT NULL,
	"due_date" date NOT NULL,
	"business_date" date NOT NULL,
	"scheduled_at" timestamp with time zone NOT NULL,
	"status" text DEFAULT 'queued' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"provider" text,
	"reason" text,
	"created_at" timestamp with time zone NOT NULL,
	"sent_at" timestamp with time zone,
	CONSTRAINT "collection_contact_channel_ck" CHECK ("collection_contact"."channel" in ('sms', 'email')),
	CONSTRAINT "collection_contact_status_ck" CHECK ("collection_contact"."status" in ('queued', 'sending', 'sent', 'skipped', 'failed'))
);
--> statement-breakpoint
ALTER TABLE "collection_contact" ADD CONSTRAINT "collection_contact_loan_id_loan_id_fk" FOREIGN KEY ("loan_id") REFERENCES "public"."loan"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "collection_contact" ADD CONSTRAINT "collection_contact_client_id_client_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."client"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "collection_contact_uq" ON "collection_contact" USING btree ("loan_id","kind","channel","due_date");--> statement-breakpoint
CREATE INDEX "collection_contact_due_idx" ON "collection_contact" USING btree ("scheduled_at","id") WHERE "collection_contact"."status" = 'queued';--> statement-breakpoint
CREATE INDEX "collection_contact_client_idx" ON "collection_contact" USING btree ("client_id");
