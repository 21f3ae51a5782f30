CREATE TABLE "rate_limit_windows" (
	"key_id" uuid NOT NULL,
	"bucket" text NOT NULL,
	"window_start" timestamp with time zone NOT NULL,
	"count" integer NOT NULL,
	CONSTRAINT "rate_limit_windows_key_id_bucket_window_start_pk" PRIMARY KEY("key_id","bucket","window_start")
);
