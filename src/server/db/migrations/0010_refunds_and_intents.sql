-- Refunds and payment intents by order (the order lifecycle, docs/decisions/order-lifecycle.md):
-- order_intent records every intent the shop asked a provider for, so that removing or expiring an
-- order cancels them; refund records each refund made through a provider (one per intent), by an
-- admin or automatically (a payment for a removed or expired order, a second charge for a paid one).
-- sandbox_intent.refund_id holds the sandbox's refunds; order_user_pending_idx serves the cap on one customer's unpaid orders at every booking.
CREATE TYPE "public"."refund_reason" AS ENUM('admin', 'order_removed', 'order_expired', 'duplicate_charge');--> statement-breakpoint
CREATE TABLE "order_intent" (
	"intent_id" text PRIMARY KEY NOT NULL,
	"order_id" uuid NOT NULL,
	"provider" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "refund" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"order_id" uuid,
	"intent_id" text NOT NULL,
	"provider_refund_id" text NOT NULL,
	"amount" integer NOT NULL,
	"reason" "refund_reason" NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "refund_intent_id_unique" UNIQUE("intent_id"),
	CONSTRAINT "refund_provider_refund_id_unique" UNIQUE("provider_refund_id")
);
--> statement-breakpoint
ALTER TABLE "sandbox_intent" ADD COLUMN "refund_id" text;--> statement-breakpoint
ALTER TABLE "refund" ADD CONSTRAINT "refund_order_id_order_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."order"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "order_intent_order_idx" ON "order_intent" USING btree ("order_id");--> statement-breakpoint
CREATE INDEX "refund_order_idx" ON "refund" USING btree ("order_id");--> statement-breakpoint
CREATE INDEX "order_user_pending_idx" ON "order" USING btree ("user_id","expires_at") WHERE "order"."status" = 'pending';--> statement-breakpoint
-- The sandbox's intents made before this migration, so their orders' removal cancels them too.
INSERT INTO "order_intent" ("intent_id", "order_id", "provider", "created_at")
SELECT "id", "order_id", 'sandbox', "created_at" FROM "sandbox_intent" ON CONFLICT DO NOTHING;