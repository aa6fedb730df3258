-- Bookings of one product hold its row lock for less (issue 30; docs/decisions/order-stalls.md).
-- Every booking of a product waits for the one before it to commit: the product's row lock is taken
-- by the stock's UPDATE and held until the commit. In 0014 the UPDATE's conditions read the
-- customer's unpaid orders twice (the cap and the share), and PostgreSQL reads them again when a
-- waiting UPDATE gets the lock (its recheck of the newest row), and the order's row, with its eight
-- indexes (a trigram one among them), was written after the UPDATE, still under the lock. Here
-- everything that does not need the lock comes before it: the customer's holds are counted once,
-- after the customer's own booking lock (only this customer's bookings add to them, and those wait
-- for that lock; expiry and payment only take holds away), and the order is written first with the
-- product as read; the UPDATE then checks only the product's own columns. Should the product's
-- name, price or image have changed between the read and the lock (an admin's edit), the order is
-- brought up to the locked row before the commit. The rules, their errors and the one-statement
-- call are as in 0014, with the stock ledger's movement of 0018 and the archive of 0017.
-- The counter of 0014 in PL/pgSQL: a SQL function's statement is planned at every call, and
-- every booking bumps one or three counters; PL/pgSQL keeps its plan for the connection.
CREATE OR REPLACE FUNCTION bump_rate_limit(counter text, amount integer, window_seconds integer,
  OUT total integer, OUT retry_seconds integer) LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO rate_limit AS r (key, count, window_start) VALUES (counter, amount, now())
  ON CONFLICT (key) DO UPDATE SET
    count = CASE WHEN r.window_start <= now() - make_interval(secs => window_seconds)
                 THEN amount ELSE r.count + amount END,
    window_start = CASE WHEN r.window_start <= now() - make_interval(secs => window_seconds)
                        THEN now() ELSE r.window_start END
  RETURNING r.count,
    greatest(1, ceil(extract(epoch from (r.window_start + make_interval(secs => window_seconds) - now())))::int)
  INTO total, retry_seconds;
END $$;
--> statement-breakpoint
DROP FUNCTION book_order(text, text, text, text, uuid, integer, text, text, text, integer, integer, integer, integer, integer, integer, integer, bigint, text, text);
--> statement-breakpoint
CREATE FUNCTION book_order(
  booker text, booker_name text, booker_email text, booker_address text, wanted_product uuid,
  units integer, ship_to text, ship_phone text, chosen_img text, hold_seconds integer,
  max_unpaid integer, max_unpaid_units integer, share_percent integer, min_units integer,
  account_limit integer, address_limit integer, max_total bigint, idempotency text,
  idempotency_hash text
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
  SELECT p.name, p.price, p.image INTO item FROM product AS p WHERE p.id = wanted_product;
  IF NOT FOUND THEN
    RAISE EXCEPTION 'no product %', wanted_product USING ERRCODE = 'GH409';
  END IF;
  -- In 64 bits, so no product of price and quantity overflows before it is compared; the locked
  -- price is compared again below.
  IF item.price::bigint * units > max_total THEN
    RAISE EXCEPTION 'total over %', max_total USING ERRCODE = 'GH409';
  END IF;
  INSERT INTO "order" (user_id, product_id, product_name, img, name, email, address, phone, quantity,
    unit_price, total_price, status, expires_at, created_at)
  VALUES (booker, wanted_product, item.name, coalesce(chosen_img, item.image), booker_name, booker_email,
    ship_to, ship_phone, units, item.price, item.price * units, 'pending',
    now() + make_interval(secs => hold_seconds), now())
  RETURNING * INTO booked;
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
    AND price::bigint * units <= max_total
    -- The customer's share of this product: what it holds unpaid of it, and this booking, against
    -- the stock as it would be without its holds.
    AND held_here + units <= greatest(min_units, (quantity + held_here) * share_percent / 100)
    -- The source address's share: several accounts from one place count as one customer.
    AND address_units <= greatest(min_units, (quantity + address_units - units)::bigint * share_percent / 100)
  RETURNING name, price, image INTO locked;
  IF NOT FOUND THEN
    RAISE EXCEPTION 'no stock taken for product %', wanted_product USING ERRCODE = 'GH409';
  END IF;
  -- The reason holds for this booking only: a later change in the caller's transaction sets its own.
  PERFORM set_config('gearhouse.stock_reason', '', true), set_config('gearhouse.stock_order', '', true);
  IF (locked.name, locked.price, locked.image) IS DISTINCT FROM (item.name, item.price, item.image) THEN
    UPDATE "order" SET product_name = locked.name, unit_price = locked.price,
      total_price = locked.price * units, img = coalesce(chosen_img, locked.image)
    WHERE id = booked.id
    RETURNING * INTO booked;
  END IF;
  IF idempotency IS NOT NULL THEN
    UPDATE idempotency_key SET order_id = booked.id WHERE user_id = booker AND key = idempotency;
  END IF;
  RETURN NEXT booked;
END $$;
