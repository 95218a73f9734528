CREATE TABLE "state_transition" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "state_transition_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"machine" text NOT NULL,
	"subject_id" bigint NOT NULL,
	"client_id" bigint NOT NULL,
	"model_version" integer NOT NULL,
	"from_state" text NOT NULL,
	"to_state" text NOT NULL,
	"event" text NOT NULL,
	"call" text,
	"actor_kind" text NOT NULL,
	"actor_id" text NOT NULL,
	"at" timestamp with time zone NOT NULL,
	CONSTRAINT "state_transition_actor_kind_ck" CHECK ("state_transition"."actor_kind" in ('client', 'back-office', 'job')),
	CONSTRAINT "state_transition_call_ck" CHECK (("state_transition"."actor_kind" = 'job') = ("state_transition"."call" is null))
);
--> statement-breakpoint
ALTER TABLE "state_transition" ADD CONSTRAINT "state_transition_client_id_client_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."client"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "state_transition_client_idx" ON "state_transition" USING btree ("client_id","id");--> statement-breakpoint
CREATE INDEX "state_transition_subject_idx" ON "state_transition" USING btree ("machine","subject_id","id");