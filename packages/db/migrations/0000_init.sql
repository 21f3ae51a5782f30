CREATE TABLE "api_keys" (
	"id" uuid PRIMARY KEY NOT NULL,
	"key_hash" text NOT NULL,
	"key_prefix" text NOT NULL,
	"plan" text NOT NULL,
	"document_limit" integer,
	"active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "api_keys_key_hash_unique" UNIQUE("key_hash")
);
--> statement-breakpoint
CREATE TABLE "job_history" (
	"event_id" uuid PRIMARY KEY NOT NULL,
	"job_id" uuid NOT NULL,
	"type" text NOT NULL,
	"version" integer NOT NULL,
	"occurred_at" timestamp with time zone NOT NULL,
	"attempt" integer,
	"worker" text,
	"effective" boolean NOT NULL,
	"topic" text NOT NULL,
	"partition" integer NOT NULL,
	"offset" bigint NOT NULL,
	"data" jsonb NOT NULL
);
--> statement-breakpoint
CREATE TABLE "jobs" (
	"job_id" uuid PRIMARY KEY NOT NULL,
	"key_id" uuid,
	"status" text NOT NULL,
	"lane" text,
	"output" text,
	"request_id" text,
	"webhook_url" text,
	"created_at" timestamp with time zone,
	"started_at" timestamp with time zone,
	"finished_at" timestamp with time zone,
	"expires_at" timestamp with time zone,
	"attempts" integer DEFAULT 0 NOT NULL,
	"result" jsonb,
	"error" jsonb,
	"terminal_event_id" uuid
);
--> statement-breakpoint
CREATE TABLE "projection_checkpoints" (
	"topic" text NOT NULL,
	"partition" integer NOT NULL,
	"next_offset" bigint NOT NULL,
	CONSTRAINT "projection_checkpoints_topic_partition_pk" PRIMARY KEY("topic","partition")
);
--> statement-breakpoint
CREATE INDEX "job_history_job_idx" ON "job_history" USING btree ("job_id","topic","partition","offset");--> statement-breakpoint
CREATE INDEX "jobs_key_finished_idx" ON "jobs" USING btree ("key_id","finished_at");