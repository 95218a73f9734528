-- Issue 20 item 1 (docs/decisions/0039-sandbox-panel.md): sandbox mode switched on from the back office, for the
-- whole instance (one row at most) and for one client (one row per client ever switched). A row keeps its last
-- state, who set it and when; the history is the audit trail. Read only on a sandbox deployment: a production
-- server without the sandbox switch answers "off" whatever these rows say.
CREATE TABLE "sandbox_instance_mode" (
  "id" smallint PRIMARY KEY DEFAULT 1,
  "enabled" boolean NOT NULL,
  "changed_by" bigint NOT NULL REFERENCES "back_office_user" ("id"),
  "changed_at" timestamp with time zone NOT NULL,
  CONSTRAINT "sandbox_instance_mode_one_row_ck" CHECK ("id" = 1)
);
--> statement-breakpoint
CREATE TABLE "client_sandbox_mode" (
  "client_id" bigint PRIMARY KEY REFERENCES "client" ("id"),
  "enabled" boolean NOT NULL,
  "changed_by" bigint NOT NULL REFERENCES "back_office_user" ("id"),
  "changed_at" timestamp with time zone NOT NULL
);
