CREATE TABLE "single_link_token" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "single_link_token_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"client_id" bigint NOT NULL,
	"token_hash" text NOT NULL,
	"issued_by" bigint,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"consumed_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "trusted_device" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "trusted_device_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"subject_type" text NOT NULL,
	"subject_id" bigint NOT NULL,
	"device_hash" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_seen_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "session" ADD COLUMN "device_hash" text;--> statement-breakpoint
ALTER TABLE "verification_code" ADD COLUMN "owner" text;--> statement-breakpoint
ALTER TABLE "single_link_token" ADD CONSTRAINT "single_link_token_client_id_client_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."client"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "single_link_token_hash_uq" ON "single_link_token" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "single_link_token_client_idx" ON "single_link_token" USING btree ("client_id");--> statement-breakpoint
CREATE UNIQUE INDEX "trusted_device_uq" ON "trusted_device" USING btree ("subject_type","subject_id","device_hash");