-- Before the rule: of several live supporting documents of one client, category and type, the newest stays live;
-- the older rows are marked deleted (their files are left for an operator to sweep).
UPDATE "uploaded_file" SET "deleted_at" = now()
WHERE "category" <> 'id_document' AND "deleted_at" IS NULL AND "id" NOT IN (
  SELECT DISTINCT ON ("client_id", "category", "kind") "id" FROM "uploaded_file"
  WHERE "category" <> 'id_document' AND "deleted_at" IS NULL
  ORDER BY "client_id", "category", "kind", "created_at" DESC, "id" DESC
);--> statement-breakpoint
CREATE UNIQUE INDEX "uploaded_file_live_document_uq" ON "uploaded_file" USING btree ("client_id","category","kind") WHERE "uploaded_file"."category" <> 'id_document' and "uploaded_file"."deleted_at" is null;
