CREATE TABLE "promo_code" (
	"code" text PRIMARY KEY NOT NULL,
	"valid_from" timestamp with time zone NOT NULL,
	"valid_to" timestamp with time zone NOT NULL,
	"client_kinds" text[] NOT NULL,
	"max_uses" integer,
	"uses_per_client" integer,
	"interest_discount_bps" integer NOT NULL,
	"service_fee_discount_bps" integer NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "promo_redemption" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "promo_redemption_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"code" text NOT NULL,
	"client_id" bigint NOT NULL,
	"application_id" bigint,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "promo_redemption" ADD CONSTRAINT "promo_redemption_code_promo_code_code_fk" FOREIGN KEY ("code") REFERENCES "public"."promo_code"("code") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "promo_redemption_code_idx" ON "promo_redemption" USING btree ("code","client_id");