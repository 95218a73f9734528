-- Issue 18, items 3 and 4: debt sales to collection agencies, forwarding of payments that still reach Hiram
-- after a sale (Civil Code Art. 1626), write-offs. docs/decisions/0029-debt-sale-and-write-off.md.
CREATE TABLE "collection_agency" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "collection_agency_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"name" text NOT NULL,
	"phone" text NOT NULL,
	"email" text NOT NULL,
	"payment_instructions" text NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"created_by" bigint
);
--> statement-breakpoint
CREATE UNIQUE INDEX "collection_agency_name_uq" ON "collection_agency" USING btree (lower("name"));
--> statement-breakpoint
CREATE TABLE "debt_sale" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "debt_sale_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"agency_id" bigint NOT NULL REFERENCES "collection_agency"("id"),
	"user_id" bigint NOT NULL,
	"reason" text,
	"at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "debt_sale_loan" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "debt_sale_loan_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"sale_id" bigint NOT NULL REFERENCES "debt_sale"("id"),
	"loan_id" bigint NOT NULL REFERENCES "loan"("id"),
	"client_id" bigint NOT NULL REFERENCES "client"("id"),
	"agency_id" bigint NOT NULL REFERENCES "collection_agency"("id"),
	"amount" bigint NOT NULL,
	"principal" bigint NOT NULL,
	"interest" bigint NOT NULL,
	"fees" bigint NOT NULL,
	"penalties" bigint NOT NULL,
	"business_date" date NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"notified_at" timestamp with time zone
);
--> statement-breakpoint
CREATE UNIQUE INDEX "debt_sale_loan_loan_uq" ON "debt_sale_loan" USING btree ("loan_id");
--> statement-breakpoint
CREATE INDEX "debt_sale_loan_sale_idx" ON "debt_sale_loan" USING btree ("sale_id");
--> statement-breakpoint
CREATE INDEX "debt_sale_loan_client_idx" ON "debt_sale_loan" USING btree ("client_id");
--> statement-breakpoint
CREATE TABLE "debt_forward" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "debt_forward_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"payment_id" bigint NOT NULL REFERENCES "payment"("id"),
	"loan_id" bigint NOT NULL REFERENCES "loan"("id"),
	"client_id" bigint NOT NULL REFERENCES "client"("id"),
	"agency_id" bigint NOT NULL REFERENCES "collection_agency"("id"),
	"amount" bigint NOT NULL,
	"status" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"forwarded_at" timestamp with time zone,
	"forwarded_by" bigint,
	CONSTRAINT "debt_forward_status_ck" CHECK ("debt_forward"."status" in ('pending', 'forwarded', 'cancelled'))
);
--> statement-breakpoint
CREATE UNIQUE INDEX "debt_forward_payment_uq" ON "debt_forward" USING btree ("payment_id");
--> statement-breakpoint
CREATE INDEX "debt_forward_status_idx" ON "debt_forward" USING btree ("status","id");
--> statement-breakpoint
CREATE TABLE "loan_write_off" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "loan_write_off_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"loan_id" bigint NOT NULL REFERENCES "loan"("id"),
	"client_id" bigint NOT NULL REFERENCES "client"("id"),
	"user_id" bigint NOT NULL,
	"reason" text NOT NULL,
	"amount" bigint NOT NULL,
	"business_date" date NOT NULL,
	"at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "loan_write_off_loan_uq" ON "loan_write_off" USING btree ("loan_id");
--> statement-breakpoint
-- The sandbox's agency, clearly fictional: a real one is added by the back office (and this one deactivated).
INSERT INTO "collection_agency" ("name", "phone", "email", "payment_instructions", "active", "created_at")
VALUES (
	'Bantay Collections Inc. (sandbox)',
	'+63 2 8000 0000',
	'payments@bantay-collections.example',
	'Pay Bantay Collections through InstaPay or PESONet to account 0000-0000-00 (sandbox bank), or at any Bayad center, quoting your Hiram loan number.',
	true,
	now()
);
