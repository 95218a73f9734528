-- Issue 22 item 5 (docs/decisions/0041-referrals.md): the employment step's optional employer phone (the spec's
-- generic phone rule: a landline or a mobile number) and the client's tax id (BIR TIN, 9, 12 or 14 digits).
ALTER TABLE "client_profile" ADD COLUMN "employer_phone" text;
--> statement-breakpoint
ALTER TABLE "client_profile" ADD COLUMN "tax_id" text;
