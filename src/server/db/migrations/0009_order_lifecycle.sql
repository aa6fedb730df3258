-- The order lifecycle: an unpaid order holds its units until expires_at, then expires (status
-- expired, expired_at); a paid one may be refunded (refunded_at) or shipped with a carrier and a
-- tracking number. The new enum values are only added here, not used: PostgreSQL lets a transaction
-- use an enum value only once the transaction that added it has committed.
ALTER TYPE "public"."order_status" ADD VALUE 'refunded';--> statement-breakpoint
ALTER TYPE "public"."order_status" ADD VALUE 'expired';--> statement-breakpoint
ALTER TABLE "order" ADD COLUMN "expires_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "order" ADD COLUMN "expired_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "order" ADD COLUMN "refunded_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "order" ADD COLUMN "carrier" text;--> statement-breakpoint
ALTER TABLE "order" ADD COLUMN "tracking_number" text;--> statement-breakpoint
CREATE INDEX "order_pending_expires_idx" ON "order" USING btree ("expires_at") WHERE "order"."status" = 'pending';--> statement-breakpoint
-- Orders unpaid before this migration get a day from now: no customer's order expires unannounced.
UPDATE "order" SET "expires_at" = now() + interval '24 hours' WHERE "status" = 'pending';
