-- Product SKUs and back-in-stock subscriptions (issue 31, items 4 and 5): every product gets a
-- unique SKU, by which a CSV import finds it; the existing ones are numbered within their category
-- in the order they were added (KEYB-000001, MICE-000001...), and a product added without one gets
-- GH-<product_sku_seq>. stock_notice holds the customers' subscriptions (features/stock-notices);
-- its mail goes through the outbox as kind back_in_stock, order_id naming the subscription.
ALTER TYPE "public"."mail_kind" ADD VALUE IF NOT EXISTS 'back_in_stock';--> statement-breakpoint
CREATE SEQUENCE IF NOT EXISTS "product_sku_seq";--> statement-breakpoint
ALTER TABLE "product" ADD COLUMN "sku" text;--> statement-breakpoint
UPDATE "product" p SET "sku" = numbered.sku
FROM (
  SELECT id, upper(left(replace(category::text, '-', ''), 4)) || '-'
    || lpad((row_number() OVER (PARTITION BY category ORDER BY created_at, id))::text, 6, '0') AS sku
  FROM "product"
) numbered
WHERE numbered.id = p.id;--> statement-breakpoint
ALTER TABLE "product" ALTER COLUMN "sku" SET DEFAULT 'GH-' || lpad(nextval('product_sku_seq')::text, 6, '0');--> statement-breakpoint
ALTER TABLE "product" ALTER COLUMN "sku" SET NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "product_sku_idx" ON "product" USING btree ("sku");--> statement-breakpoint
CREATE TABLE "stock_notice" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" text NOT NULL,
	"product_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"notified_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "stock_notice" ADD CONSTRAINT "stock_notice_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stock_notice" ADD CONSTRAINT "stock_notice_product_id_product_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."product"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "stock_notice_open_idx" ON "stock_notice" USING btree ("user_id","product_id") WHERE "stock_notice"."notified_at" is null;--> statement-breakpoint
CREATE INDEX "stock_notice_user_idx" ON "stock_notice" USING btree ("user_id","created_at","id");--> statement-breakpoint
CREATE INDEX "stock_notice_product_idx" ON "stock_notice" USING btree ("product_id","created_at","id");--> statement-breakpoint
CREATE INDEX "stock_notice_created_idx" ON "stock_notice" USING btree ("created_at","id");
