CREATE TABLE "classification" (
	"path" text NOT NULL,
	"code" text NOT NULL,
	"locale" text NOT NULL,
	"label" text NOT NULL,
	"sort_order" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "classification_path_code_locale_pk" PRIMARY KEY("path","code","locale")
);
--> statement-breakpoint
CREATE TABLE "config" (
	"key" text PRIMARY KEY NOT NULL,
	"value" jsonb NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "config_audit" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "config_audit_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"key" text NOT NULL,
	"value" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"note" text DEFAULT '' NOT NULL
);
--> statement-breakpoint
CREATE TABLE "contact" (
	"key" text PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"link" text NOT NULL,
	"display" text NOT NULL,
	"hours" text
);
--> statement-breakpoint
CREATE TABLE "institution" (
	"id" integer PRIMARY KEY NOT NULL,
	"code" text NOT NULL,
	"name" text NOT NULL,
	"parent" text NOT NULL,
	"sort_order" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "psgc_area" (
	"code" text PRIMARY KEY NOT NULL,
	"level" text NOT NULL,
	"name" text NOT NULL,
	"parent_code" text,
	"region_code" text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "institution_parent_code_uq" ON "institution" USING btree ("parent","code");--> statement-breakpoint
CREATE INDEX "psgc_area_parent_idx" ON "psgc_area" USING btree ("parent_code","name");--> statement-breakpoint
CREATE INDEX "psgc_area_level_idx" ON "psgc_area" USING btree ("level","name");