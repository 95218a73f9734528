-- Spec section 9 (docs/decisions/0048-age-limits-content-setting.md): the age limits, set by the back office's
-- content system. One row at most; none until someone sets them, and then the defaults (AGE_LIMITS, 20 and 70,
-- domain/journey/fields.ts) apply. Never below 18, the age of majority; never above 100; min below max.
CREATE TABLE "age_limits" (
  "id" smallint PRIMARY KEY DEFAULT 1,
  "min_age" smallint NOT NULL,
  "max_age" smallint NOT NULL,
  "updated_at" timestamp with time zone DEFAULT now() NOT NULL,
  CONSTRAINT "age_limits_one_row_ck" CHECK ("id" = 1),
  CONSTRAINT "age_limits_range_ck" CHECK ("min_age" >= 18 and "max_age" <= 100 and "min_age" < "max_age")
);
