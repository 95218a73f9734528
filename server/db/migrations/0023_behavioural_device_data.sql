-- Issue 22 item 1 (docs/decisions/0042-behavioural-and-device-data.md): the browser's behavioural events (tracking
-- start and stop, page states hidden, visible and before unload), appended and never changed, kept 12 months; the
-- fraud tools' session tokens issued to a browser; and the index the decision engine's shared-device rule reads.
-- Only collected after the client consented to device data (consent kind device_data).
CREATE TABLE "behaviour_event" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "behaviour_event_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"client_id" bigint NOT NULL REFERENCES "client" ("id"),
	"session_id" text NOT NULL,
	"type" text NOT NULL,
	"page_state" text,
	"path" text NOT NULL,
	"seq" integer NOT NULL,
	"occurred_at" timestamp with time zone NOT NULL,
	"received_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE INDEX "behaviour_event_client_idx" ON "behaviour_event" USING btree ("client_id","received_at");
--> statement-breakpoint
CREATE INDEX "behaviour_event_received_idx" ON "behaviour_event" USING btree ("received_at");
--> statement-breakpoint
CREATE TABLE "fraud_tool_session" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "fraud_tool_session_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"kind" text NOT NULL,
	"client_id" bigint REFERENCES "client" ("id"),
	"device_hash" text NOT NULL,
	"provider" text NOT NULL,
	"tokens" jsonb NOT NULL,
	"consent_version" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE INDEX "fraud_tool_session_client_idx" ON "fraud_tool_session" USING btree ("client_id","created_at");
--> statement-breakpoint
CREATE INDEX "fraud_tool_session_created_idx" ON "fraud_tool_session" USING btree ("created_at");
--> statement-breakpoint
CREATE INDEX "application_blackbox_idx" ON "application" USING btree ("iovation_blackbox","created_at") WHERE "iovation_blackbox" IS NOT NULL;
