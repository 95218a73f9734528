-- Issue 19 item 4 (docs/decisions/0036-review-queue.md): the review queue's assignment and the first signature of
-- a four-eyes approval, one row per application that has had either; and the threshold of the four-eyes rule.
CREATE TABLE "application_review" (
  "application_id" bigint PRIMARY KEY REFERENCES "application" ("id"),
  "assigned_to" bigint REFERENCES "back_office_user" ("id"),
  "assigned_at" timestamp with time zone,
  "first_approved_by" bigint REFERENCES "back_office_user" ("id"),
  "first_approved_at" timestamp with time zone,
  "first_approved_version" integer,
  "first_approval_reason" text,
  "updated_at" timestamp with time zone DEFAULT now() NOT NULL,
  CONSTRAINT "application_review_assigned_ck" CHECK (("assigned_to" IS NULL) = ("assigned_at" IS NULL)),
  CONSTRAINT "application_review_first_ck" CHECK (
    ("first_approved_by" IS NULL) = ("first_approved_at" IS NULL)
    AND ("first_approved_by" IS NULL) = ("first_approved_version" IS NULL)
  )
);
--> statement-breakpoint
CREATE INDEX "application_review_assigned_idx" ON "application_review" ("assigned_to");
--> statement-breakpoint
-- The queue reads the waiting applications oldest first.
CREATE INDEX "application_waiting_idx" ON "application" ("created_at", "id") WHERE "status" IN (14, 401);
--> statement-breakpoint
-- PHP 10 000.00: an approval above it needs a second underwriter. Never overwrites a value an admin saved.
INSERT INTO "config" ("key", "value") VALUES ('review', '{"fourEyesAboveCentavos": 1000000}'::jsonb)
  ON CONFLICT ("key") DO NOTHING;
--> statement-breakpoint
INSERT INTO "config_audit" ("key", "value", "note")
  SELECT 'review', "value", 'seed' FROM "config" WHERE "key" = 'review'
  AND NOT EXISTS (SELECT 1 FROM "config_audit" WHERE "key" = 'review');
