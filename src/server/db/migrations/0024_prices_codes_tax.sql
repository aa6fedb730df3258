CREATE TYPE "public"."discount_kind" AS ENUM('percent', 'amount');--> statement-breakpoint
CREATE TABLE "discount_code_use" (
	"order_id" uuid PRIMARY KEY NOT NULL,
	"code_id" uuid NOT NULL,
	"user_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "discount_code" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"code" text NOT NULL,
	"kind" "discount_kind" NOT NULL,
	"value" integer NOT NULL,
	"starts_at" timestamp with time zone DEFAULT now() NOT NULL,
	"ends_at" timestamp with time zone,
	"min_quantity" integer DEFAULT 1 NOT NULL,
	"product_ids" uuid[] DEFAULT '{}' NOT NULL,
	"categories" "category"[] DEFAULT '{}' NOT NULL,
	"max_uses" integer,
	"max_uses_per_customer" integer,
	"uses" integer DEFAULT 0 NOT NULL,
	"ended_at" timestamp with time zone,
	"created_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "discount_code_upper" CHECK ("discount_code"."code" = upper("discount_code"."code")),
	CONSTRAINT "discount_code_value" CHECK ("discount_code"."value" > 0 and ("discount_code"."kind" = 'amount' or "discount_code"."value" <= 100)),
	CONSTRAINT "discount_code_min_quantity" CHECK ("discount_code"."min_quantity" >= 1),
	CONSTRAINT "discount_code_uses" CHECK ("discount_code"."uses" >= 0)
);
--> statement-breakpoint
CREATE TABLE "shop_settings" (
	"one" boolean PRIMARY KEY DEFAULT true NOT NULL,
	"tax_rate_bp" integer DEFAULT 0 NOT NULL,
	"prices_include_tax" boolean DEFAULT false NOT NULL,
	"tax_id" text DEFAULT '' NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "shop_settings_one_row" CHECK ("shop_settings"."one"),
	CONSTRAINT "shop_settings_tax_rate" CHECK ("shop_settings"."tax_rate_bp" between 0 and 10000)
);
--> statement-breakpoint
ALTER TABLE "product" ADD COLUMN "price_tiers" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "order" ADD COLUMN "discount_cents" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "order" ADD COLUMN "net_cents" integer;--> statement-breakpoint
ALTER TABLE "order" ADD COLUMN "tax_cents" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "order" ADD COLUMN "gross_cents" integer;--> statement-breakpoint
ALTER TABLE "order" ADD COLUMN "tax_rate_bp" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "order" ADD COLUMN "prices_include_tax" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "order" ADD COLUMN "discount_code" text;--> statement-breakpoint
ALTER TABLE "order" ADD COLUMN "company_name" text;--> statement-breakpoint
ALTER TABLE "order" ADD COLUMN "company_tax_id" text;--> statement-breakpoint
-- The orders booked before: no discount, no tax, the total as charged. The order's triggers (mails,
-- invoices, charts, counts) have nothing to do for it, so they are off for this one statement.
ALTER TABLE "order" DISABLE TRIGGER USER;--> statement-breakpoint
UPDATE "order" SET net_cents = total_price * 100, gross_cents = total_price * 100;--> statement-breakpoint
ALTER TABLE "order" ENABLE TRIGGER USER;--> statement-breakpoint
ALTER TABLE "order" ALTER COLUMN "net_cents" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "order" ALTER COLUMN "gross_cents" SET NOT NULL;--> statement-breakpoint
INSERT INTO shop_settings (one) VALUES (true);--> statement-breakpoint
ALTER TABLE "profile" ADD COLUMN "company_name" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "profile" ADD COLUMN "company_tax_id" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "discount_code_use" ADD CONSTRAINT "discount_code_use_code_id_discount_code_id_fk" FOREIGN KEY ("code_id") REFERENCES "public"."discount_code"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "discount_code_use" ADD CONSTRAINT "discount_code_use_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "discount_code" ADD CONSTRAINT "discount_code_created_by_user_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "discount_code_use_customer_idx" ON "discount_code_use" USING btree ("code_id","user_id");--> statement-breakpoint
CREATE INDEX "discount_code_use_code_idx" ON "discount_code_use" USING btree ("code_id","created_at","order_id");--> statement-breakpoint
CREATE UNIQUE INDEX "discount_code_code_idx" ON "discount_code" USING btree ("code");--> statement-breakpoint
CREATE INDEX "discount_code_created_idx" ON "discount_code" USING btree ("created_at","id");--> statement-breakpoint
ALTER TABLE "product" ADD CONSTRAINT "product_price_tiers_array" CHECK (jsonb_typeof("product"."price_tiers") = 'array');--> statement-breakpoint
ALTER TABLE "order" ADD CONSTRAINT "order_amounts" CHECK ("order"."net_cents" + "order"."tax_cents" = "order"."gross_cents" and "order"."discount_cents" >= 0 and "order"."tax_cents" >= 0);--> statement-breakpoint
-- Prices (docs/product.md, "Prices"). The unit price for a quantity: the tier with the largest
-- minimum at or below it, else the list price.
CREATE FUNCTION tier_price(list_price integer, tiers jsonb, units integer) RETURNS integer
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT coalesce((SELECT (t ->> 'price')::int FROM jsonb_array_elements(tiers) AS t
    WHERE (t ->> 'min')::int <= units ORDER BY (t ->> 'min')::int DESC LIMIT 1), list_price)
$$;
--> statement-breakpoint
-- An order's amounts in cents from its line (unit price times quantity): the discount, never so much
-- that less than min_charge is left; then, on what is left, the tax rounded half up to the cent,
-- added (prices without tax) or taken out of it (prices with tax). net + tax = gross always.
-- src/shared/pricing.ts computes the same for the booking form (a test holds the two together).
CREATE FUNCTION order_amounts(line_cents bigint, off_kind discount_kind, off_value integer,
  rate_bp integer, inclusive boolean, min_charge integer,
  OUT discount_cents integer, OUT net_cents integer, OUT tax_cents integer, OUT gross_cents integer)
LANGUAGE plpgsql IMMUTABLE AS $$
DECLARE
  rest bigint;
BEGIN
  discount_cents := greatest(0, least(
    CASE off_kind WHEN 'percent' THEN (line_cents * off_value + 50) / 100 WHEN 'amount' THEN off_value ELSE 0 END,
    line_cents - min_charge));
  rest := line_cents - discount_cents;
  IF inclusive THEN
    gross_cents := rest;
    net_cents := (2 * rest * 10000 + 10000 + rate_bp) / (2 * (10000 + rate_bp));
    tax_cents := gross_cents - net_cents;
  ELSE
    net_cents := rest;
    tax_cents := (rest * rate_bp + 5000) / 10000;
    gross_cents := net_cents + tax_cents;
  END IF;
END $$;
--> statement-breakpoint
-- Whether a code applies to this booking, read as committed now: the code, or GH422 with the reason
-- in HINT (and the minimum quantity in DETAIL).
CREATE FUNCTION check_discount_code(entered text, booker text, wanted_product uuid,
  wanted_category category, units integer) RETURNS discount_code LANGUAGE plpgsql AS $$
DECLARE
  code_row discount_code;
  used integer;
BEGIN
  SELECT * INTO code_row FROM discount_code WHERE code = upper(btrim(entered));
  IF NOT FOUND OR code_row.starts_at > now() THEN
    RAISE EXCEPTION 'no code %', entered USING ERRCODE = 'GH422', HINT = 'unknown';
  END IF;
  IF code_row.ended_at IS NOT NULL OR code_row.ends_at <= now() THEN
    RAISE EXCEPTION 'code % ended', entered USING ERRCODE = 'GH422', HINT = 'ended';
  END IF;
  IF units < code_row.min_quantity THEN
    RAISE EXCEPTION 'code % needs % units', entered, code_row.min_quantity
      USING ERRCODE = 'GH422', HINT = 'min-quantity', DETAIL = code_row.min_quantity::text;
  END IF;
  IF (cardinality(code_row.product_ids) > 0 OR cardinality(code_row.categories) > 0)
     AND NOT (wanted_product = ANY (code_row.product_ids) OR wanted_category = ANY (code_row.categories)) THEN
    RAISE EXCEPTION 'code % not for this product', entered USING ERRCODE = 'GH422', HINT = 'not-applicable';
  END IF;
  IF code_row.uses >= code_row.max_uses THEN
    RAISE EXCEPTION 'code % used up', entered USING ERRCODE = 'GH422', HINT = 'used-up';
  END IF;
  IF code_row.max_uses_per_customer IS NOT NULL THEN
    SELECT count(*) INTO used FROM discount_code_use AS u WHERE u.code_id = code_row.id AND u.user_id = booker;
    IF used >= code_row.max_uses_per_customer THEN
      RAISE EXCEPTION 'code % used up by %', entered, booker USING ERRCODE = 'GH422', HINT = 'customer-limit';
    END IF;
  END IF;
  RETURN code_row;
END $$;
--> statement-breakpoint
-- What a booking would cost now, without taking anything (the booking form's quote).
CREATE FUNCTION quote_order(booker text, wanted_product uuid, units integer, entered text, min_charge integer,
  OUT unit_price integer, OUT total_price integer, OUT applied_code text, OUT discount_cents integer,
  OUT net_cents integer, OUT tax_cents integer, OUT gross_cents integer, OUT tax_rate_bp integer,
  OUT prices_include_tax boolean) LANGUAGE plpgsql AS $$
DECLARE
  item record;
  applied discount_code;
  amounts record;
BEGIN
  SELECT p.price, p.price_tiers, p.category INTO item FROM product AS p
  WHERE p.id = wanted_product AND p.archived_at IS NULL;
  IF NOT FOUND THEN
    RAISE EXCEPTION 'no product %', wanted_product USING ERRCODE = 'GH404';
  END IF;
  IF entered IS NOT NULL THEN
    applied := check_discount_code(entered, booker, wanted_product, item.category, units);
    applied_code := applied.code;
  END IF;
  SELECT s.tax_rate_bp, s.prices_include_tax INTO tax_rate_bp, prices_include_tax FROM shop_settings AS s;
  unit_price := tier_price(item.price, item.price_tiers, units);
  total_price := unit_price * units;
  SELECT * INTO amounts FROM order_amounts(total_price::bigint * 100, applied.kind, applied.value,
    coalesce(tax_rate_bp, 0), coalesce(prices_include_tax, false), min_charge);
  discount_cents := amounts.discount_cents;
  net_cents := amounts.net_cents;
  tax_cents := amounts.tax_cents;
  gross_cents := amounts.gross_cents;
END $$;
--> statement-breakpoint
-- A use is given back when its order is removed or expires (the code's count, under its row lock).
CREATE FUNCTION free_discount_use() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  WITH freed AS (DELETE FROM discount_code_use WHERE order_id = OLD.id RETURNING code_id)
  UPDATE discount_code SET uses = uses - 1 WHERE id IN (SELECT code_id FROM freed);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER order_free_discount_expired AFTER UPDATE OF status ON "order"
  FOR EACH ROW WHEN (NEW.status = 'expired' AND OLD.status <> 'expired' AND OLD.discount_code IS NOT NULL)
  EXECUTE FUNCTION free_discount_use();
--> statement-breakpoint
CREATE TRIGGER order_free_discount_removed AFTER DELETE ON "order"
  FOR EACH ROW WHEN (OLD.discount_code IS NOT NULL) EXECUTE FUNCTION free_discount_use();

--> statement-breakpoint
-- book_order of 0020 with prices: tiers, a discount code, tax and the buyer's company.
DROP FUNCTION book_order(text, text, text, text, uuid, integer, text, text, text, integer, integer, integer, integer, integer, integer, integer, bigint, text, text);
--> statement-breakpoint
CREATE FUNCTION book_order(
  booker text, booker_name text, booker_email text, booker_address text, wanted_product uuid,
  units integer, ship_to text, ship_phone text, chosen_img text, hold_seconds integer,
  max_unpaid integer, max_unpaid_units integer, share_percent integer, min_units integer,
  account_limit integer, address_limit integer, max_total bigint, idempotency text,
  idempotency_hash text, entered_code text, company text, company_tax text, min_charge integer
) RETURNS SETOF "order" LANGUAGE plpgsql AS $$
DECLARE
  booked "order";
  item record;
  locked record;
  counted integer;
  retry integer;
  -- The units of this product booked from the source address within a hold's time, this one's included.
  address_units integer := 0;
  held_orders bigint;
  held_units bigint;
  -- What the customer holds unpaid of this product.
  held_here bigint;
  applied discount_code;
  settings record;
  amounts record;
  booked_price integer;
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
    SELECT total INTO address_units
    FROM bump_rate_limit('booking:address-units:' || booker_address || ':' || wanted_product, units, hold_seconds);
  END IF;
  -- The customer's bookings take turns (other customers' never wait on it); the next statement, with
  -- a snapshot of its own taken after the lock, counts every booking of theirs committed before.
  PERFORM pg_advisory_xact_lock(hashtext('order-booking:' || booker));
  -- The cap and the share: the unpaid orders that still hold units (order_user_pending_idx).
  SELECT count(*), coalesce(sum(held.quantity), 0),
         coalesce(sum(held.quantity) FILTER (WHERE held.product_id = wanted_product), 0)
    INTO held_orders, held_units, held_here
    FROM "order" AS held
   WHERE held.user_id = booker AND held.status = 'pending' AND held.expires_at > now();
  IF held_orders >= max_unpaid OR held_units + units > max_unpaid_units THEN
    RAISE EXCEPTION 'over the unpaid orders cap' USING ERRCODE = 'GH409';
  END IF;
  SELECT p.name, p.price, p.image, p.price_tiers, p.category INTO item FROM product AS p WHERE p.id = wanted_product;
  IF NOT FOUND THEN
    RAISE EXCEPTION 'no product %', wanted_product USING ERRCODE = 'GH409';
  END IF;
  booked_price := tier_price(item.price, item.price_tiers, units);
  -- In 64 bits, so no product of price and quantity overflows before it is compared; the locked
  -- price is compared again below.
  IF booked_price::bigint * units > max_total THEN
    RAISE EXCEPTION 'total over %', max_total USING ERRCODE = 'GH409';
  END IF;
  IF entered_code IS NOT NULL THEN
    -- The code's checks, as committed now; its use is taken below, just before the stock. The
    -- customer's own uses were counted after their booking lock above, so they hold.
    applied := check_discount_code(entered_code, booker, wanted_product, item.category, units);
  END IF;
  SELECT s.tax_rate_bp, s.prices_include_tax INTO settings FROM shop_settings AS s;
  SELECT * INTO amounts FROM order_amounts(booked_price::bigint * units * 100, applied.kind, applied.value,
    coalesce(settings.tax_rate_bp, 0), coalesce(settings.prices_include_tax, false), min_charge);
  -- With tax added, the card's charge too stays within what one payment can take.
  IF amounts.gross_cents > max_total * 100 + 99 THEN
    RAISE EXCEPTION 'gross over %', max_total USING ERRCODE = 'GH400';
  END IF;
  INSERT INTO "order" (user_id, product_id, product_name, img, name, email, address, phone, quantity,
    unit_price, total_price, discount_cents, net_cents, tax_cents, gross_cents, tax_rate_bp,
    prices_include_tax, discount_code, company_name, company_tax_id, status, expires_at, created_at)
  VALUES (booker, wanted_product, item.name, coalesce(chosen_img, item.image), booker_name, booker_email,
    ship_to, ship_phone, units, booked_price, booked_price * units, amounts.discount_cents, amounts.net_cents,
    amounts.tax_cents, amounts.gross_cents, coalesce(settings.tax_rate_bp, 0),
    coalesce(settings.prices_include_tax, false), applied.code, company, company_tax, 'pending',
    now() + make_interval(secs => hold_seconds), now())
  RETURNING * INTO booked;
  IF applied.id IS NOT NULL THEN
    -- The code's use. Its row lock, until the commit, makes the bookings with this code take turns,
    -- so no more than max_uses ever hold one; taken after the order is written, as the product's
    -- is, so the turns are short, and before the product's, as removal and expiry take them.
    UPDATE discount_code SET uses = uses + 1
    WHERE id = applied.id AND (max_uses IS NULL OR uses < max_uses) AND ended_at IS NULL
      AND (ends_at IS NULL OR ends_at > now());
    IF NOT FOUND THEN
      RAISE EXCEPTION 'code % used up', entered_code USING ERRCODE = 'GH422', HINT = 'used-up';
    END IF;
    INSERT INTO discount_code_use (order_id, code_id, user_id) VALUES (booked.id, applied.id, booker);
  END IF;
  -- The stock ledger's movement (migration 0018) names this booking's order.
  PERFORM set_config('gearhouse.stock_reason', 'booking', true),
    set_config('gearhouse.stock_order', booked.id::text, true),
    set_config('gearhouse.stock_admin', '', true), set_config('gearhouse.stock_note', '', true);
  -- The lock: from here to the commit, this product's other bookings wait.
  UPDATE product SET quantity = quantity - units, updated_at = now()
  WHERE id = wanted_product
    AND quantity >= units
    -- Archived while this booking waited for the lock (the order's trigger of 0017 saw it on sale):
    -- no stock is taken, and the service's re-read answers 410.
    AND archived_at IS NULL
    -- In 64 bits, so no product of price and quantity overflows before it is compared.
    AND tier_price(price, price_tiers, units)::bigint * units <= max_total
    -- The customer's share of this product: what it holds unpaid of it, and this booking, against
    -- the stock as it would be without its holds.
    AND held_here + units <= greatest(min_units, (quantity + held_here) * share_percent / 100)
    -- The source address's share: several accounts from one place count as one customer.
    AND address_units <= greatest(min_units, (quantity + address_units - units)::bigint * share_percent / 100)
  RETURNING name, price, image, price_tiers INTO locked;
  IF NOT FOUND THEN
    RAISE EXCEPTION 'no stock taken for product %', wanted_product USING ERRCODE = 'GH409';
  END IF;
  -- The reason holds for this booking only: a later change in the caller's transaction sets its own.
  PERFORM set_config('gearhouse.stock_reason', '', true), set_config('gearhouse.stock_order', '', true);
  IF (locked.name, locked.price, locked.image, locked.price_tiers)
     IS DISTINCT FROM (item.name, item.price, item.image, item.price_tiers) THEN
    booked_price := tier_price(locked.price, locked.price_tiers, units);
    SELECT * INTO amounts FROM order_amounts(booked_price::bigint * units * 100, applied.kind, applied.value,
      coalesce(settings.tax_rate_bp, 0), coalesce(settings.prices_include_tax, false), min_charge);
    UPDATE "order" SET product_name = locked.name, unit_price = booked_price,
      total_price = booked_price * units, discount_cents = amounts.discount_cents,
      net_cents = amounts.net_cents, tax_cents = amounts.tax_cents, gross_cents = amounts.gross_cents,
      img = coalesce(chosen_img, locked.image)
    WHERE id = booked.id
    RETURNING * INTO booked;
  END IF;
  IF idempotency IS NOT NULL THEN
    UPDATE idempotency_key SET order_id = booked.id WHERE user_id = booker AND key = idempotency;
  END IF;
  RETURN NEXT booked;
END $$;
