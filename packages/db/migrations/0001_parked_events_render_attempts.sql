CREATE TABLE "parked_events" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "parked_events_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"consumer" text NOT NULL,
	"topic" text NOT NULL,
	"partition" integer NOT NULL,
	"offset" bigint NOT NULL,
	"job_id" text,
	"event_type" text,
	"error" text NOT NULL,
	"tries" integer NOT NULL,
	"parked_at" timestamp with time zone DEFAULT now() NOT NULL,
	"resolved_at" timestamp with time zone,
	CONSTRAINT "parked_events_position" UNIQUE("consumer","topic","partition","offset")
);
--> statement-breakpoint
CREATE TABLE "render_attempts" (
	"job_id" uuid PRIMARY KEY NOT NULL,
	"attempts" integer NOT NULL,
	"counted" integer NOT NULL,
	"worker" text NOT NULL,
	"started_at" timestamp with time zone NOT NULL
);
