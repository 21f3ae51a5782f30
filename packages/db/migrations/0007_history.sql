ALTER TABLE "delivery_schedule" ADD COLUMN "redelivery" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "delivery_schedule" ADD COLUMN "redelivery_event_id" uuid;--> statement-breakpoint
ALTER TABLE "usage" ADD COLUMN "output" text;--> statement-breakpoint
CREATE INDEX "job_history_rerun_of_idx" ON "job_history" USING btree (("data"->>'rerun_of')) WHERE type = 'JobQueued';--> statement-breakpoint
CREATE INDEX "jobs_key_created_idx" ON "jobs" USING btree ("key_id","created_at" DESC NULLS LAST,"job_id" DESC NULLS LAST);--> statement-breakpoint
-- The ledger's output for documents counted before usage kept it, from their jobs while those are still there.
UPDATE "usage" SET "output" = "jobs"."output" FROM "jobs" WHERE "jobs"."job_id" = "usage"."job_id" AND "usage"."output" IS NULL;
