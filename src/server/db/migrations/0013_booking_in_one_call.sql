-- A booking in one call (docs/decisions/order-lifecycle.md, "One call"): the key's claim, the
-- customer's booking lock, the statement that checks the cap, takes the stock and writes the order,
-- and the key's order, run in the database, in the caller's statement. Called on its own, it commits
-- the moment it ends: the product's row lock is held for the statement and the commit, never across
-- a round trip to the shop (which, on a busy shop, waited for the server's next turn of its event
-- loop while every other booking of that product queued behind it). The rules are the caller's
-- parameters; the mechanics are the ones the shop ran in a transaction of its own before.
--
-- One row: the order booked. No row: a request with this Idempotency-Key was taken before (the
-- caller answers with its order). SQLSTATE GH409: nothing taken (stock short, product gone, total
-- over max_total, or the customer's cap), and nothing of the call kept (the key's claim neither).
CREATE FUNCTION book_order(
  booker text, booker_name text, booker_email text, wanted_product uuid, units integer,
  ship_to text, ship_phone text, chosen_img text, hold_seconds integer, max_unpaid integer,
  max_unpaid_units integer, max_total bigint, idempotency text, idempotency_hash text
) RETURNS SETOF "order" LANGUAGE plpgsql AS $$
DECLARE
  booked "order";
BEGIN
  IF idempotency IS NOT NULL THEN
    -- A second request with the key waits here for the first to commit or roll back.
    INSERT INTO idempotency_key (user_id, key, request_hash) VALUES (booker, idempotency, idempotency_hash)
    ON CONFLICT DO NOTHING;
    IF NOT FOUND THEN
      RETURN;
    END IF;
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
