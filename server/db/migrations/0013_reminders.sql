-- Placeholder: filled by the issue 18 work of this migration's name (an empty migration is a no-op).
SELECT 1;
