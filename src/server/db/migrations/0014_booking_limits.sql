-- Booking limits (issue 28, item 2; docs/product.md, "Booking limits"), counted inside book_order so a
-- booking stays one statement: bookings per account and per source address an hour, in rate_limit
-- rows as the shop's other limits are (lib/rate-limit.ts), and a share of each product's stock that
-- one customer may hold unpaid, and one source address may book within a hold's time (several
-- accounts from one place count as one customer). Every count is in the
-- call's statement: a refused booking (stock short, a cap, a limit) keeps none of it.
--
-- The counter of lib/rate-limit.ts (a fixed window, bumped by `amount`), in SQL: the count after this
-- bump, and the whole seconds until its window ends. In the update, the columns are the stored row's.
CREATE FUNCTION bump_rate_limit(counter text, amount integer, window_seconds integer,
  OUT total integer, OUT retry_seconds integer) LANGUAGE sql AS $$
  INSERT INTO rate_limit AS r (key, count, window_start) VALUES (counter, amount, now())
  ON CONFLICT (key) DO UPDATE SET
    count = CASE WHEN r.window_start <= now() - make_interval(secs => window_seconds)
                 THEN amount ELSE r.count + amount END,
    window_start = CASE WHEN r.window_start <= now() - make_interval(secs => window_seconds)
                        THEN now() ELSE r.window_start END
  RETURNING r.count,
    greatest(1, ceil(extract(epoch from (r.window_start + make_interval(secs => window_seconds) - now())))::int)
$$;
--> statement-breakpoint
DROP FUNCTION book_order(text, text, text, uuid, integer, text, text, text, integer, integer, integer, bigint, text, text);
--> statement-breakpoint
-- As in 0013, with the limits. SQLSTATE GH429: over the account's (HINT 'account') or the source
-- address's (HINT 'address') bookings an hour, DETAIL the seconds until a booking is counted again.
-- SQLSTATE GH409: nothing taken, now also when the customer would hold more than its share of the
-- product (share_percent of the units in stock and its own unpaid units of it, at least min_units),
-- or the source address would have booked more than that share of it within hold_seconds.
-- address_limit 0 counts nothing per address (a load test from one machine).
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
  INSERT INTO "order" (user_id, product_id, product_name, img, name, email, address, phone, quantity,
    unit_price, total_price, status, expires_at, created_at)
  SELECT booker, taken.id, taken.name, coalesce(chosen_img, taken.image), booker_name, booker_email,
    ship_to, ship_phone, units, taken.price, taken.price * units, 'pending',
    now() + make_interval(secs => hold_seconds), now()
  FROM taken
  RETURNING * INTO booked;
  IF NOT FOUND THEN
    RAISE EXCEPTION 'no stock taken for product %', wanted_product USING ERRCODE = 'GH409';
  END IF;
  IF idempotency IS NOT NULL THEN
    UPDATE idempotency_key SET order_id = booked.id WHERE user_id = booker AND key = idempotency;
  END IF;
  RETURN NEXT booked;
END $$;
