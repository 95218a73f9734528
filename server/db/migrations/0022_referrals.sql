-- Issue 22 item 2 (docs/decisions/0041-referrals.md): refer-a-friend, behind the `referrals` configuration switch
-- (off by default). An invitation keeps the friend's number only while it is open; a reward row is never changed.
CREATE TABLE "referral" (
  "id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY,
  "referrer_client_id" bigint NOT NULL REFERENCES "client" ("id"),
  "friend_phone" text,
  "phone_last4" text NOT NULL,
  "status" text DEFAULT 'invited' NOT NULL,
  "refusal" text,
  "friend_client_id" bigint REFERENCES "client" ("id"),
  "invited_at" timestamp with time zone NOT NULL,
  "expires_at" timestamp with time zone NOT NULL,
  "signed_up_at" timestamp with time zone,
  "updated_at" timestamp with time zone NOT NULL,
  CONSTRAINT "referral_status_ck" CHECK ("status" in ('invited', 'signedUp', 'rewarded', 'cancelled', 'expired', 'refused'))
);
--> statement-breakpoint
CREATE INDEX "referral_referrer_idx" ON "referral" ("referrer_client_id", "invited_at");
--> statement-breakpoint
CREATE UNIQUE INDEX "referral_open_phone_uq" ON "referral" ("friend_phone") WHERE "status" in ('invited', 'signedUp');
--> statement-breakpoint
CREATE TABLE "referral_reward" (
  "id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY,
  "referral_id" bigint NOT NULL REFERENCES "referral" ("id"),
  "referrer_client_id" bigint NOT NULL REFERENCES "client" ("id"),
  "amount" bigint NOT NULL,
  "created_at" timestamp with time zone NOT NULL,
  CONSTRAINT "referral_reward_amount_ck" CHECK ("amount" >= 0)
);
--> statement-breakpoint
CREATE UNIQUE INDEX "referral_reward_referral_uq" ON "referral_reward" ("referral_id");
--> statement-breakpoint
CREATE INDEX "referral_reward_referrer_idx" ON "referral_reward" ("referrer_client_id", "created_at");
--> statement-breakpoint
-- Append-only: a reward is never changed or removed (it is what the referrer was promised).
CREATE FUNCTION "referral_reward_append_only"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'referral_reward is append-only';
END;
$$;
--> statement-breakpoint
CREATE TRIGGER "referral_reward_no_change" BEFORE UPDATE OR DELETE ON "referral_reward"
  FOR EACH ROW EXECUTE FUNCTION "referral_reward_append_only"();
