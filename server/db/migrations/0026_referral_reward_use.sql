-- Refer-a-friend rewards spent (docs/decisions/0041-referrals.md): the centavos a signed offer took off its service
-- fee, one row per application, written in the signing transaction. Append-only like referral_reward: a loan
-- cancelled before the money left gives the reward back by being left out of the balance, never by a change here.
CREATE TABLE "referral_reward_use" (
  "id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY,
  "client_id" bigint NOT NULL REFERENCES "client" ("id"),
  "application_id" bigint NOT NULL REFERENCES "application" ("id"),
  "amount" bigint NOT NULL,
  "created_at" timestamp with time zone NOT NULL,
  CONSTRAINT "referral_reward_use_amount_ck" CHECK ("amount" > 0)
);
--> statement-breakpoint
CREATE UNIQUE INDEX "referral_reward_use_application_uq" ON "referral_reward_use" ("application_id");
--> statement-breakpoint
CREATE INDEX "referral_reward_use_client_idx" ON "referral_reward_use" ("client_id");
--> statement-breakpoint
CREATE FUNCTION "referral_reward_use_append_only"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'referral_reward_use is append-only';
END;
$$;
--> statement-breakpoint
CREATE TRIGGER "referral_reward_use_no_change" BEFORE UPDATE OR DELETE ON "referral_reward_use"
  FOR EACH ROW EXECUTE FUNCTION "referral_reward_use_append_only"();
