-- Issue 19: placeholder, filled by the work that owns this migration.
SELECT 1;
