CREATE TABLE "affiliate_lead" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"first_name" text,
	"middle_name" text,
	"last_name" text,
	"document_type" text,
	"client_identificator" text,
	"date_of_birth" date,
	"gender" text,
	"civil_status" text,
	"email" text,
	"phone" text NOT NULL,
	"partner" text NOT NULL,
	"code" text,
	"campaign" text,
	"source" text,
	"optional_param" text,
	"created_by" bigint,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"client_id" bigint
);
--> statement-breakpoint
ALTER TABLE "affiliate_lead" ADD CONSTRAINT "affiliate_lead_client_id_client_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."client"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "affiliate_lead_client_idx" ON "affiliate_lead" USING btree ("client_id");--> statement-breakpoint
CREATE INDEX "affiliate_lead_partner_idx" ON "affiliate_lead" USING btree ("partner");