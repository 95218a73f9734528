-- Issue 19 items 5 and 6: maker-checker proposals and configuration versions
-- (docs/decisions/0035-maker-checker-and-config-versions.md).
CREATE TABLE "approval" (
  "id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY,
  "kind" text NOT NULL,
  "subject" text NOT NULL,
  "payload" jsonb NOT NULL,
  "note" text DEFAULT '' NOT NULL,
  "status" text DEFAULT 'pending' NOT NULL,
  "proposed_by" bigint NOT NULL,
  "proposed_at" timestamp with time zone DEFAULT now() NOT NULL,
  "decided_by" bigint,
  "decided_at" timestamp with time zone,
  "reason" text,
  "result" jsonb,
  CONSTRAINT "approval_status_ck" CHECK ("status" in ('pending', 'approved', 'rejected')),
  CONSTRAINT "approval_four_eyes_ck" CHECK ("decided_by" is null or "decided_by" <> "proposed_by")
);
--> statement-breakpoint
CREATE INDEX "approval_status_idx" ON "approval" ("status", "id");
--> statement-breakpoint
CREATE TABLE "config_version" (
  "id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY,
  "key" text NOT NULL,
  "version" integer NOT NULL,
  "value" jsonb NOT NULL,
  "note" text DEFAULT '' NOT NULL,
  "proposed_by" bigint,
  "approved_by" bigint,
  "approval_id" bigint,
  "effective_at" timestamp with time zone NOT NULL,
  "created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "config_version_key_version_uq" ON "config_version" ("key", "version");
--> statement-breakpoint
CREATE INDEX "config_version_key_effective_idx" ON "config_version" ("key", "effective_at");
--> statement-breakpoint
-- The documents in force today become their keys' first known versions, in force since forever.
INSERT INTO "config_version" ("key", "version", "value", "note", "effective_at")
  SELECT "key", "version", "value", 'in force before versions', to_timestamp(0) FROM "config";
--> statement-breakpoint
-- A reversal, a write-off and a debt sale are approved in two phases: claimed (executing), then done or failed.
ALTER TABLE "approval" DROP CONSTRAINT "approval_status_ck";
--> statement-breakpoint
ALTER TABLE "approval" ADD CONSTRAINT "approval_status_ck"
  CHECK ("status" in ('pending', 'approved', 'rejected', 'executing', 'failed'));
--> statement-breakpoint
-- One open proposal per payment to reverse and per loan to write off (a second would only fail when approved).
CREATE UNIQUE INDEX "approval_open_subject_uq" ON "approval" ("kind", "subject")
  WHERE "status" in ('pending', 'executing') AND "kind" in ('payments.reverse', 'loans.write-off');
