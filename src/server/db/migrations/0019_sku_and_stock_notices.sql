-- Product SKUs and back-in-stock subscriptions (issue 31, items 4 and 5): every product gets a
-- unique SKU, by which a CSV import finds it; the existing ones are numbered within their category
-- in the order they were added (KEYB-000001, MICE-000001...), and a product added without one gets
-- GH-<product_sku_seq>. stock_notice holds the customers' subscriptions (features/stock-notices);
-- its mail goes through the outbox as kind back_in_stock, order_id naming the subscription. Last,
-- archived products leave the low-stock list (0018's triggers, redefined).
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
--> statement-breakpoint

-- Hand-written below. An archived product is not restocked, so it is never on the overview's
-- low-stock list and never alerts (issue 31): sync_low_stock (0018) counts it as stocked enough,
-- archiving takes its row off the list, and restoring puts it back when its stock is below, with
-- no mail (its stock did not fall).
CREATE OR REPLACE FUNCTION sync_low_stock(p product, stock_fell boolean) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  limit_units integer := coalesce(p.low_stock_threshold, (SELECT low_stock_default FROM stock_setting WHERE id));
  fresh boolean;
BEGIN
  IF p.archived_at IS NULL AND p.quantity < limit_units THEN
    INSERT INTO low_stock_product AS l (product_id, name, quantity, threshold)
    VALUES (p.id, p.name, p.quantity, limit_units)
    ON CONFLICT (product_id) DO UPDATE SET name = excluded.name, quantity = excluded.quantity, threshold = excluded.threshold
    RETURNING (xmax = 0) INTO fresh;
    IF fresh AND stock_fell THEN
      INSERT INTO mail_outbox (kind, product_id, recipient_id)
      SELECT 'low_stock', p.id, u.id FROM "user" u WHERE u.role = 'admin' ORDER BY u.id;
    END IF;
  ELSE
    DELETE FROM low_stock_product WHERE product_id = p.id;
  END IF;
END $$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION stock_of_new_products() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO stock_movement (product_id, change, stock_after, reason, admin_id, note)
  SELECT id, quantity, quantity, coalesce(stock_setting_of('stock_reason'), 'initial'),
         stock_setting_of('stock_admin'), stock_setting_of('stock_note')
  FROM new_products ORDER BY id;
  INSERT INTO low_stock_product (product_id, name, quantity, threshold)
  SELECT n.id, n.name, n.quantity, coalesce(n.low_stock_threshold, s.low_stock_default)
  FROM new_products n, stock_setting s
  WHERE s.id AND n.archived_at IS NULL AND n.quantity < coalesce(n.low_stock_threshold, s.low_stock_default);
  RETURN NULL;
END $$;--> statement-breakpoint
DROP TRIGGER product_low_stock_update ON product;--> statement-breakpoint
CREATE TRIGGER product_low_stock_update AFTER UPDATE OF name, low_stock_threshold, archived_at ON product
  FOR EACH ROW WHEN (OLD.name IS DISTINCT FROM NEW.name
                     OR OLD.low_stock_threshold IS DISTINCT FROM NEW.low_stock_threshold
                     OR OLD.archived_at IS DISTINCT FROM NEW.archived_at)
  EXECUTE FUNCTION low_stock_of_product();--> statement-breakpoint
DELETE FROM low_stock_product l USING product p WHERE p.id = l.product_id AND p.archived_at IS NOT NULL;
