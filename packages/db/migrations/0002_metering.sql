CREATE TABLE "quota_reservations" (
	"job_id" uuid PRIMARY KEY NOT NULL,
	"key_id" uuid NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "usage" (
	"job_id" uuid PRIMARY KEY NOT NULL,
	"key_id" uuid NOT NULL,
	"period" text NOT NULL,
	"ordinal" integer NOT NULL,
	"counted_at" timestamp with time zone NOT NULL,
	CONSTRAINT "usage_key_period_ordinal" UNIQUE("key_id","period","ordinal")
);
--> statement-breakpoint
CREATE INDEX "quota_reservations_key_idx" ON "quota_reservations" USING btree ("key_id");--> statement-breakpoint
CREATE INDEX "usage_key_idx" ON "usage" USING btree ("key_id");