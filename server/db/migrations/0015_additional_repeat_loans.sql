-- Issue 18 items 5 and 6 (docs/decisions/0030-additional-and-repeat-loans.md): the repeat limit grows by configured
-- steps with each repaid loan. The steps are their own configuration document, 'limits' (domain/loan/limits.ts
-- limitGrowthSchema, defaultLimitGrowth); the seed adds it too, and neither overwrites one an admin saved.
INSERT INTO "config" ("key", "value")
VALUES ('limits', '{"onTimeStep": 200000, "lateStep": 50000, "lateToleranceDays": 7}'::jsonb)
ON CONFLICT ("key") DO NOTHING;
