-- Issue 31, item 1: a product is archived (retired) rather than deleted once it was ordered.
-- archived_at is null for a product on sale. The storefront reads live products only, so the
-- indexes its pages walk become partial (WHERE archived_at IS NULL): a page is still read
-- index-only up to its rows, and archived products cost the storefront nothing. The admin's list
-- of archived products, most recently archived first, has its own small index.
ALTER TABLE "product" ADD COLUMN IF NOT EXISTS "archived_at" timestamp with time zone;--> statement-breakpoint
DROP INDEX IF EXISTS "product_name_idx";--> statement-breakpoint
DROP INDEX IF EXISTS "product_price_idx";--> statement-breakpoint
DROP INDEX IF EXISTS "product_created_idx";--> statement-breakpoint
DROP INDEX IF EXISTS "product_category_name_idx";--> statement-breakpoint
DROP INDEX IF EXISTS "product_category_price_idx";--> statement-breakpoint
DROP INDEX IF EXISTS "product_category_created_idx";--> statement-breakpoint
CREATE INDEX "product_name_idx" ON "product" USING btree ("name","id") WHERE "product"."archived_at" is null;--> statement-breakpoint
CREATE INDEX "product_price_idx" ON "product" USING btree ("price","id") WHERE "product"."archived_at" is null;--> statement-breakpoint
CREATE INDEX "product_created_idx" ON "product" USING btree ("created_at","id") WHERE "product"."archived_at" is null;--> statement-breakpoint
CREATE INDEX "product_category_name_idx" ON "product" USING btree ("category","name","id") WHERE "product"."archived_at" is null;--> statement-breakpoint
CREATE INDEX "product_category_price_idx" ON "product" USING btree ("category","price","id") WHERE "product"."archived_at" is null;--> statement-breakpoint
CREATE INDEX "product_category_created_idx" ON "product" USING btree ("category","created_at","id") WHERE "product"."archived_at" is null;--> statement-breakpoint
CREATE INDEX "product_archived_idx" ON "product" USING btree ("archived_at","id") WHERE "product"."archived_at" is not null;--> statement-breakpoint
-- Whether a product was ever ordered (a delete is refused then), and the foreign key's ON DELETE
-- SET NULL, which without it reads every order to delete one product.
CREATE INDEX IF NOT EXISTS "order_product_idx" ON "order" USING btree ("product_id");--> statement-breakpoint
-- Hand-written: an archived product is never booked, whatever writes the order (GH410, answered
-- as 410 Gone by features/orders/service.ts), which undoes the whole booking; an archive that
-- commits while a booking waits for the product's row lock is caught by book_order's UPDATE
-- (migration 0020), whose re-read answers 410 too. No check before booking: it would cost a round
-- trip per booking. Once per
-- statement, over the rows it inserted: seed:scale's bulk inserts pay one join, not a call a row.
CREATE OR REPLACE FUNCTION refuse_orders_of_archived_products() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  archived uuid;
BEGIN
  SELECT p.id INTO archived
  FROM new_orders o JOIN product p ON p.id = o.product_id
  WHERE p.archived_at IS NOT NULL
  LIMIT 1;
  IF FOUND THEN
    RAISE EXCEPTION 'product % is archived', archived USING ERRCODE = 'GH410';
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
DROP TRIGGER IF EXISTS order_product_not_archived ON "order";--> statement-breakpoint
CREATE TRIGGER order_product_not_archived AFTER INSERT ON "order"
  REFERENCING NEW TABLE AS new_orders
  FOR EACH STATEMENT EXECUTE FUNCTION refuse_orders_of_archived_products();
