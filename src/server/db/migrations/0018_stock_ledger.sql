-- The stock ledger and low-stock alerts (issue 31, items 2 and 3; docs/product.md, "Stock ledger").
-- Every change of product.quantity writes a stock_movement row in its own transaction, by the
-- triggers below, from transaction-local settings its writer sets first (src/server/lib/stock.ts):
--   select set_config('gearhouse.stock_reason', 'adjustment', true), ... ;
--   update product set quantity = ... ;
-- gearhouse.stock_reason (required for an update), gearhouse.stock_order, gearhouse.stock_admin and
-- gearhouse.stock_note. A change of quantity with no reason is refused, so no path skips the ledger,
-- and a product's stock is the sum of its movements in every snapshot.
CREATE TABLE "stock_movement" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"product_id" uuid NOT NULL,
	"change" integer NOT NULL,
	"stock_after" integer NOT NULL,
	"reason" text NOT NULL,
	"order_id" uuid,
	"admin_id" text,
	"note" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "stock_movement_reason_known" CHECK ("stock_movement"."reason" in ('initial', 'booking', 'removal', 'expiry', 'refund', 'adjustment', 'import'))
);
--> statement-breakpoint
CREATE TABLE "stock_setting" (
	"id" boolean PRIMARY KEY DEFAULT true NOT NULL,
	"low_stock_default" integer NOT NULL,
	CONSTRAINT "stock_setting_one_row" CHECK ("stock_setting"."id")
);
--> statement-breakpoint
ALTER TABLE "product" ADD COLUMN "low_stock_threshold" integer;--> statement-breakpoint
ALTER TABLE "product" ADD CONSTRAINT "product_low_stock_threshold_range" CHECK ("product"."low_stock_threshold" >= 0);--> statement-breakpoint
-- The rows there are were kept below 50 (0005).
ALTER TABLE "low_stock_product" ADD COLUMN "threshold" integer DEFAULT 50 NOT NULL;--> statement-breakpoint
ALTER TABLE "low_stock_product" ALTER COLUMN "threshold" DROP DEFAULT;--> statement-breakpoint
ALTER TYPE "public"."mail_kind" ADD VALUE 'low_stock';--> statement-breakpoint
ALTER TABLE "mail_outbox" ALTER COLUMN "order_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "mail_outbox" ADD COLUMN "product_id" uuid;--> statement-breakpoint
ALTER TABLE "mail_outbox" ADD COLUMN "recipient_id" text;--> statement-breakpoint
ALTER TABLE "stock_movement" ADD CONSTRAINT "stock_movement_product_id_product_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."product"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stock_movement" ADD CONSTRAINT "stock_movement_admin_id_user_id_fk" FOREIGN KEY ("admin_id") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "stock_movement_product_idx" ON "stock_movement" USING btree ("product_id","id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "stock_movement_admin_idx" ON "stock_movement" USING btree ("admin_id") WHERE "stock_movement"."admin_id" is not null;--> statement-breakpoint
INSERT INTO stock_setting (id, low_stock_default) VALUES (true, 50);--> statement-breakpoint

-- Hand-written below. The reason of the change under way; an empty setting (what a setting made
-- local reads as after its transaction) is none.
CREATE FUNCTION stock_setting_of(name text) RETURNS text LANGUAGE sql STABLE AS $$
  SELECT nullif(current_setting('gearhouse.' || name, true), '')
$$;--> statement-breakpoint

-- The products below their threshold (their own, or the shop's default when they have none), as
-- 0005 kept them below 50: a product's row there is its alert's state. A row made by a change of
-- stock is a crossing, and queues one mail per admin (mail_outbox, kind low_stock, read by the
-- outbox's sender when it goes); the row goes when the stock is back to the threshold, which
-- arms the alert again. A row made otherwise (a new product, a threshold or default changed) sends
-- nothing: the stock did not fall.
CREATE FUNCTION sync_low_stock(p product, stock_fell boolean) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  limit_units integer := coalesce(p.low_stock_threshold, (SELECT low_stock_default FROM stock_setting WHERE id));
  fresh boolean;
BEGIN
  IF p.quantity < limit_units THEN
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

-- New products: their initial stock (or the import's, when the import sets its reason), in one
-- statement for all the rows of the insert.
CREATE FUNCTION stock_of_new_products() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO stock_movement (product_id, change, stock_after, reason, admin_id, note)
  SELECT id, quantity, quantity, coalesce(stock_setting_of('stock_reason'), 'initial'),
         stock_setting_of('stock_admin'), stock_setting_of('stock_note')
  FROM new_products ORDER BY id;
  INSERT INTO low_stock_product (product_id, name, quantity, threshold)
  SELECT n.id, n.name, n.quantity, coalesce(n.low_stock_threshold, s.low_stock_default)
  FROM new_products n, stock_setting s
  WHERE s.id AND n.quantity < coalesce(n.low_stock_threshold, s.low_stock_default);
  RETURN NULL;
END $$;--> statement-breakpoint
DROP TRIGGER product_low_stock_insert ON product;--> statement-breakpoint
DROP FUNCTION low_stock_of_new_products();--> statement-breakpoint
CREATE TRIGGER product_stock_insert AFTER INSERT ON product
  REFERENCING NEW TABLE AS new_products
  FOR EACH STATEMENT EXECUTE FUNCTION stock_of_new_products();--> statement-breakpoint

-- A change of stock: one movement, with the reason its writer set, or none at all. The low-stock
-- row is looked at only when the product is low before or after (a booking of a well-stocked
-- product writes its movement and nothing else).
CREATE FUNCTION stock_of_product() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  why text := stock_setting_of('stock_reason');
  limit_units integer;
BEGIN
  IF why IS NULL THEN
    RAISE EXCEPTION 'stock of product % changed without a reason (gearhouse.stock_reason)', NEW.id
      USING ERRCODE = 'GH500';
  END IF;
  INSERT INTO stock_movement (product_id, change, stock_after, reason, order_id, admin_id, note)
  VALUES (NEW.id, NEW.quantity - OLD.quantity, NEW.quantity, why,
          stock_setting_of('stock_order')::uuid, stock_setting_of('stock_admin'), stock_setting_of('stock_note'));
  limit_units := coalesce(NEW.low_stock_threshold, (SELECT low_stock_default FROM stock_setting WHERE id));
  IF NEW.quantity < limit_units OR OLD.quantity < limit_units THEN
    PERFORM sync_low_stock(NEW, NEW.quantity < OLD.quantity);
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER product_stock_update AFTER UPDATE OF quantity ON product
  FOR EACH ROW WHEN (OLD.quantity IS DISTINCT FROM NEW.quantity)
  EXECUTE FUNCTION stock_of_product();--> statement-breakpoint

-- A renamed product, or a threshold changed: the low-stock row follows, with no mail. (A change of
-- stock in the same statement is the trigger above's; both give the same row.)
DROP TRIGGER product_low_stock_update ON product;--> statement-breakpoint
DROP FUNCTION low_stock_of_product();--> statement-breakpoint
CREATE FUNCTION low_stock_of_product() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM sync_low_stock(NEW, false);
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER product_low_stock_update AFTER UPDATE OF name, low_stock_threshold ON product
  FOR EACH ROW WHEN (OLD.name IS DISTINCT FROM NEW.name
                     OR OLD.low_stock_threshold IS DISTINCT FROM NEW.low_stock_threshold)
  EXECUTE FUNCTION low_stock_of_product();--> statement-breakpoint

-- The products there are: their stock as it is now is their opening balance, so that the sum of
-- every product's movements is its stock from here on.
INSERT INTO stock_movement (product_id, change, stock_after, reason, note)
SELECT id, quantity, quantity, 'initial', 'Stock when the ledger began' FROM product ORDER BY id;--> statement-breakpoint

DROP FUNCTION book_order(text, text, text, text, uuid, integer, text, text, text, integer, integer, integer, integer, integer, integer, integer, bigint, text, text);
--> statement-breakpoint
-- As in 0014, every rule kept, and its booking movement: the order's id is chosen first, so the
-- ledger's trigger (which runs as the stock is taken, before the order exists) can name it.
CREATE FUNCTION book_order(
  booker text, booker_name text, booker_email text, booker_address text, wanted_product uuid,
  units integer, ship_to text, ship_phone text, chosen_img text, hold_seconds integer,
  max_unpaid integer, max_unpaid_units integer, share_percent integer, min_units integer,
  account_limit integer, address_limit integer, max_total bigint, idempotency text,
  idempotency_hash text
) RETURNS SETOF "order" LANGUAGE plpgsql AS $$
DECLARE
  booked "order";
  counted integer;
  retry integer;
  -- The units of this product booked from the source address within a hold's time, this one's included.
  address_units integer := 0;
  new_id uuid := gen_random_uuid();
BEGIN
  IF idempotency IS NOT NULL THEN
    -- A second request with the key waits here for the first to commit or roll back.
    INSERT INTO idempotency_key (user_id, key, request_hash) VALUES (booker, idempotency, idempotency_hash)
    ON CONFLICT DO NOTHING;
    IF NOT FOUND THEN
      RETURN;
    END IF;
  END IF;
  SELECT total, retry_seconds INTO counted, retry FROM bump_rate_limit('booking:account:' || booker, 1, 3600);
  IF counted > account_limit THEN
    RAISE EXCEPTION 'bookings of the account over % an hour', account_limit
      USING ERRCODE = 'GH429', DETAIL = retry::text, HINT = 'account';
  END IF;
  IF address_limit > 0 AND booker_address IS NOT NULL THEN
    SELECT total, retry_seconds INTO counted, retry
    FROM bump_rate_limit('booking:address:' || booker_address, 1, 3600);
    IF counted > address_limit THEN
      RAISE EXCEPTION 'bookings from the address over % an hour', address_limit
        USING ERRCODE = 'GH429', DETAIL = retry::text, HINT = 'address';
    END IF;
    -- Counted over a hold's time, not an hour: units booked from the address within it may all
    -- still be held.
    SELECT total INTO address_units
    FROM bump_rate_limit('booking:address-units:' || booker_address || ':' || wanted_product, units, hold_seconds);
  END IF;
  -- The customer's bookings take turns (other customers' never wait on it); the next statement, with
  -- a snapshot of its own taken after the lock, counts every booking of theirs committed before.
  PERFORM pg_advisory_xact_lock(hashtext('order-booking:' || booker));
  PERFORM set_config('gearhouse.stock_reason', 'booking', true), set_config('gearhouse.stock_order', new_id::text, true),
    set_config('gearhouse.stock_admin', '', true), set_config('gearhouse.stock_note', '', true);
  WITH taken AS (
    UPDATE product SET quantity = quantity - units, updated_at = now()
    WHERE id = wanted_product
      AND quantity >= units
      -- In 64 bits, so no product of price and quantity overflows before it is compared.
      AND price::bigint * units <= max_total
      -- The cap: the unpaid orders that still hold units (order_user_pending_idx).
      AND (SELECT count(*) < max_unpaid AND coalesce(sum(held.quantity), 0) + units <= max_unpaid_units
           FROM "order" AS held
           WHERE held.user_id = booker AND held.status = 'pending' AND held.expires_at > now())
      -- The customer's share of this product: what it holds unpaid of it, and this booking, against
      -- the stock as it would be without its holds.
      AND (SELECT coalesce(sum(mine.quantity), 0) + units
                    <= greatest(min_units, (product.quantity + coalesce(sum(mine.quantity), 0))::bigint * share_percent / 100)
           FROM "order" AS mine
           WHERE mine.user_id = booker AND mine.product_id = wanted_product AND mine.status = 'pending'
             AND mine.expires_at > now())
      -- The source address's share: several accounts from one place count as one customer.
      AND address_units <= greatest(min_units, (product.quantity + address_units - units)::bigint * share_percent / 100)
    RETURNING id, name, price, image
  )
  INSERT INTO "order" (id, user_id, product_id, product_name, img, name, email, address, phone, quantity,
    unit_price, total_price, status, expires_at, created_at)
  SELECT new_id, booker, taken.id, taken.name, coalesce(chosen_img, taken.image), booker_name, booker_email,
    ship_to, ship_phone, units, taken.price, taken.price * units, 'pending',
    now() + make_interval(secs => hold_seconds), now()
  FROM taken
  RETURNING * INTO booked;
  IF NOT FOUND THEN
    RAISE EXCEPTION 'no stock taken for product %', wanted_product USING ERRCODE = 'GH409';
  END IF;
  -- The reason holds for this booking only: a later change in the caller's transaction sets its own.
  PERFORM set_config('gearhouse.stock_reason', '', true), set_config('gearhouse.stock_order', '', true);
  IF idempotency IS NOT NULL THEN
    UPDATE idempotency_key SET order_id = booked.id WHERE user_id = booker AND key = idempotency;
  END IF;
  RETURN NEXT booked;
END $$;
