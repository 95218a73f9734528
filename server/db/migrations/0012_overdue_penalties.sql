ALTER TABLE "loan" ADD COLUMN "standing" text DEFAULT 'current' NOT NULL;--> statement-breakpoint
ALTER TABLE "loan" ADD COLUMN "overdue_since" date;--> statement-breakpoint
ALTER TABLE "loan" ADD COLUMN "serviced_through" date;--> statement-breakpoint
ALTER TABLE "loan" ADD COLUMN "penalty_through" date;--> statement-breakpoint
CREATE INDEX "loan_servicing_idx" ON "loan" USING btree ("serviced_through","id") WHERE "loan"."state" = 'active';--> statement-breakpoint
ALTER TABLE "loan" ADD CONSTRAINT "loan_standing_ck" CHECK ("loan"."standing" in ('current', 'overdue'));
--> statement-breakpoint
UPDATE "config" SET "value" = "value"
  || jsonb_build_object('penalties', '{"enabled": true, "graceDays": 3, "ratePpmPerDay": 1500}'::jsonb)
  || jsonb_build_object('reminders', '{"enabled": true, "daysBeforeDue": [3, 1], "onDueDate": true, "daysAfterDue": [1, 3, 7, 15, 30], "sendHour": 9}'::jsonb)
WHERE "key" = 'servicing' AND NOT ("value" ? 'penalties');
