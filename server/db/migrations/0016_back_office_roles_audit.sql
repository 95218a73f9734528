-- Issue 19 items 1 and 2 (docs/decisions/0031-back-office-roles.md, 0032-audit-trail.md).
-- Roles: the one role the first release knew ('admin') is the administrator of domain/back-office/roles.ts.
UPDATE "back_office_user" SET "roles" = array_replace("roles", 'admin', 'administrator');
--> statement-breakpoint
ALTER TABLE "back_office_user" ALTER COLUMN "roles" SET DEFAULT ARRAY[]::text[];
--> statement-breakpoint
-- An invited user has no password until they accept the invitation (a one-time token, only its hash kept).
ALTER TABLE "back_office_user" ALTER COLUMN "password_hash" DROP NOT NULL;
--> statement-breakpoint
ALTER TABLE "back_office_user" ADD COLUMN "invite_token_hash" text;
--> statement-breakpoint
ALTER TABLE "back_office_user" ADD COLUMN "invite_expires_at" timestamp with time zone;
--> statement-breakpoint
ALTER TABLE "back_office_user" ADD COLUMN "invited_by" bigint;
--> statement-breakpoint
CREATE UNIQUE INDEX "back_office_user_invite_uq" ON "back_office_user" ("invite_token_hash");
--> statement-breakpoint
CREATE TABLE "audit_entry" (
  "id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY,
  "at" timestamp with time zone DEFAULT now() NOT NULL,
  "user_id" bigint,
  "session_id" uuid,
  "device_hash" text,
  "call" text NOT NULL,
  "permission" text NOT NULL,
  "outcome" text NOT NULL,
  "entity" text,
  "entity_id" text,
  "client_id" bigint,
  "request" jsonb NOT NULL,
  "before" jsonb,
  "after" jsonb,
  "error" text,
  "request_id" text,
  CONSTRAINT "audit_entry_outcome_ck" CHECK ("outcome" in ('done', 'failed', 'refused'))
);
--> statement-breakpoint
CREATE INDEX "audit_entry_at_idx" ON "audit_entry" ("at");
--> statement-breakpoint
CREATE INDEX "audit_entry_user_idx" ON "audit_entry" ("user_id", "at");
--> statement-breakpoint
CREATE INDEX "audit_entry_client_idx" ON "audit_entry" ("client_id", "at");
--> statement-breakpoint
-- Append-only for everybody: no UPDATE, no DELETE, no TRUNCATE, whoever asks.
CREATE FUNCTION "audit_entry_append_only"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'audit_entry is append-only' USING ERRCODE = 'insufficient_privilege';
END;
$$;
--> statement-breakpoint
CREATE TRIGGER "audit_entry_no_change" BEFORE UPDATE OR DELETE ON "audit_entry"
  FOR EACH ROW EXECUTE FUNCTION "audit_entry_append_only"();
--> statement-breakpoint
CREATE TRIGGER "audit_entry_no_truncate" BEFORE TRUNCATE ON "audit_entry"
  FOR EACH STATEMENT EXECUTE FUNCTION "audit_entry_append_only"();
