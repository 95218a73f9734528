-- Issue 19 item 3, the client desk (docs/decisions/0034-client-desk.md).
-- Promises to pay that collections record for a client's loan. Append-only: a broken promise is a fact too.
CREATE TABLE "promise_to_pay" (
  "id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY,
  "client_id" bigint NOT NULL REFERENCES "client"("id"),
  "loan_id" bigint NOT NULL REFERENCES "loan"("id"),
  "amount" bigint NOT NULL,
  "promised_on" date NOT NULL,
  "note" text,
  "recorded_by" bigint NOT NULL,
  "created_at" timestamp with time zone DEFAULT now() NOT NULL,
  CONSTRAINT "promise_to_pay_amount_ck" CHECK ("amount" > 0)
);
--> statement-breakpoint
CREATE INDEX "promise_to_pay_client_idx" ON "promise_to_pay" ("client_id", "id");
--> statement-breakpoint
CREATE INDEX "promise_to_pay_loan_idx" ON "promise_to_pay" ("loan_id", "promised_on");
--> statement-breakpoint
-- Client search by name: a prefix of the first or last name, any case (lower(...) LIKE 'juan%').
-- text_pattern_ops lets LIKE use the index under any collation.
CREATE INDEX "client_profile_first_name_idx" ON "client_profile" (lower("first_name") text_pattern_ops);
--> statement-breakpoint
CREATE INDEX "client_profile_last_name_idx" ON "client_profile" (lower("last_name") text_pattern_ops);
