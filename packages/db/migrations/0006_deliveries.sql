CREATE TABLE "delivery_attempts" (
	"event_id" uuid PRIMARY KEY NOT NULL,
	"job_id" uuid NOT NULL,
	"attempt" integer NOT NULL,
	"url" text NOT NULL,
	"status_code" integer,
	"error" text,
	"duration_ms" integer NOT NULL,
	"outcome" text NOT NULL,
	"next_attempt_at" timestamp with time zone,
	"occurred_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "delivery_schedule" (
	"job_id" uuid PRIMARY KEY NOT NULL,
	"key_id" uuid NOT NULL,
	"url" text NOT NULL,
	"host" text NOT NULL,
	"body" text,
	"attempts_made" integer DEFAULT 0 NOT NULL,
	"state" text NOT NULL,
	"next_attempt_at" timestamp with time zone NOT NULL,
	"finished_at" timestamp with time zone,
	"expires_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "api_keys" ADD COLUMN "key_sealed" text;--> statement-breakpoint
CREATE INDEX "delivery_attempts_job_idx" ON "delivery_attempts" USING btree ("job_id","attempt");--> statement-breakpoint
CREATE INDEX "delivery_schedule_due_idx" ON "delivery_schedule" USING btree ("next_attempt_at") WHERE state = 'pending';--> statement-breakpoint
CREATE INDEX "delivery_schedule_expires_idx" ON "delivery_schedule" USING btree ("expires_at");