-- Order mails, invoices and the overview's charts (issue 18; docs/decisions/order-mails.md):
-- mail_outbox takes a row per order and kind from triggers on "order", in the same transaction as
-- the change (the shop's sender, features/mail, sends them); invoice numbers are gap-free, taken
-- from invoice_sequence by the trigger that sees an order paid; sales_day and product_sales keep the
-- charts' sums, so the overview reads a few hundred rows at any size. Triggers are made before the
-- backfill reads "order": CREATE TRIGGER locks out writers until this migration commits.
CREATE TYPE "public"."mail_kind" AS ENUM('order_placed', 'payment_reminder', 'payment_receipt', 'order_shipped', 'order_refunded', 'order_expired');--> statement-breakpoint
CREATE TABLE "invoice_sequence" (
	"one" boolean PRIMARY KEY DEFAULT true NOT NULL,
	"next" bigint NOT NULL,
	CONSTRAINT "invoice_sequence_one_row" CHECK ("invoice_sequence"."one")
);
--> statement-breakpoint
CREATE TABLE "invoice" (
	"number" bigint PRIMARY KEY NOT NULL,
	"order_id" uuid NOT NULL,
	"issued_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "invoice_order_idx" UNIQUE("order_id")
);
--> statement-breakpoint
CREATE TABLE "mail_outbox" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"kind" "mail_kind" NOT NULL,
	"order_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"due_at" timestamp with time zone DEFAULT now() NOT NULL,
	"sent_at" timestamp with time zone,
	"dropped_at" timestamp with time zone,
	"last_error" text
);
--> statement-breakpoint
CREATE TABLE "product_sales" (
	"product_id" uuid PRIMARY KEY NOT NULL,
	"units" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sales_day" (
	"day" date NOT NULL,
	"shard" smallint NOT NULL,
	"orders" bigint DEFAULT 0 NOT NULL,
	"paid" bigint DEFAULT 0 NOT NULL,
	"revenue" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "sales_day_day_shard_pk" PRIMARY KEY("day","shard")
);
--> statement-breakpoint
ALTER TABLE "invoice" ADD CONSTRAINT "invoice_order_id_order_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."order"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "product_sales" ADD CONSTRAINT "product_sales_product_id_product_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."product"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "mail_outbox_order_kind_idx" ON "mail_outbox" USING btree ("order_id","kind");--> statement-breakpoint
CREATE INDEX "mail_outbox_due_idx" ON "mail_outbox" USING btree ("due_at","id") WHERE "mail_outbox"."sent_at" is null and "mail_outbox"."dropped_at" is null;--> statement-breakpoint
CREATE INDEX "product_sales_top_idx" ON "product_sales" USING btree ("units","product_id");--> statement-breakpoint
-- Order mails: one outbox row per order and kind, in the transaction that made the change. A
-- session that sets gearhouse.quiet_mail (seed:scale, adding history) enqueues none.
CREATE FUNCTION order_mails() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF current_setting('gearhouse.quiet_mail', true) = 'on' THEN
    RETURN NULL;
  ELSIF TG_OP = 'INSERT' THEN
    INSERT INTO mail_outbox (kind, order_id)
    SELECT 'order_placed', id FROM new_orders WHERE status = 'pending' ORDER BY id
    ON CONFLICT (order_id, kind) DO NOTHING;
  ELSE
    INSERT INTO mail_outbox (kind, order_id)
    SELECT CASE n.status
             WHEN 'paid' THEN 'payment_receipt'::mail_kind
             WHEN 'shipped' THEN 'order_shipped'::mail_kind
             WHEN 'refunded' THEN 'order_refunded'::mail_kind
             ELSE 'order_expired'::mail_kind
           END, n.id
    FROM new_orders n JOIN old_orders o ON o.id = n.id
    WHERE n.status <> o.status AND n.status IN ('paid', 'shipped', 'refunded', 'expired')
    ORDER BY n.id
    ON CONFLICT (order_id, kind) DO NOTHING;
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER order_mails_insert AFTER INSERT ON "order"
  REFERENCING NEW TABLE AS new_orders FOR EACH STATEMENT EXECUTE FUNCTION order_mails();--> statement-breakpoint
CREATE TRIGGER order_mails_update AFTER UPDATE ON "order"
  REFERENCING OLD TABLE AS old_orders NEW TABLE AS new_orders FOR EACH STATEMENT EXECUTE FUNCTION order_mails();--> statement-breakpoint

-- Invoices: the next numbers, in the transaction that records the payments, in the order they were
-- paid. The sequence's one row is locked until that transaction ends: payments take turns here.
INSERT INTO invoice_sequence (one, next) VALUES (true, 1);--> statement-breakpoint
CREATE FUNCTION invoice_paid_orders() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  first bigint;
  n bigint;
BEGIN
  SELECT count(*) INTO n FROM new_orders o
  WHERE o.paid_at IS NOT NULL AND NOT EXISTS (SELECT 1 FROM invoice i WHERE i.order_id = o.id);
  IF n > 0 THEN
    UPDATE invoice_sequence SET next = next + n RETURNING next - n INTO first;
    INSERT INTO invoice (number, order_id, issued_at)
    SELECT first + row_number() OVER (ORDER BY o.paid_at, o.id) - 1, o.id, o.paid_at
    FROM new_orders o
    WHERE o.paid_at IS NOT NULL AND NOT EXISTS (SELECT 1 FROM invoice i WHERE i.order_id = o.id);
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER order_invoice_insert AFTER INSERT ON "order"
  REFERENCING NEW TABLE AS new_orders FOR EACH STATEMENT EXECUTE FUNCTION invoice_paid_orders();--> statement-breakpoint
CREATE TRIGGER order_invoice_update AFTER UPDATE ON "order"
  REFERENCING NEW TABLE AS new_orders FOR EACH STATEMENT EXECUTE FUNCTION invoice_paid_orders();--> statement-breakpoint

-- Charts: what an order adds to its days (placed; paid; refunded) and to its product's units, added
-- for new rows, taken away for removed ones, and both for changed ones, per statement.
CREATE FUNCTION add_sales(change jsonb) RETURNS void LANGUAGE sql AS $$
  WITH c AS (
    SELECT * FROM jsonb_to_recordset(change) AS x(sign int, status text, product_id uuid,
      quantity int, total bigint, created_at timestamptz, paid_at timestamptz, refunded_at timestamptz)
  ), days AS (
    INSERT INTO sales_day AS d (day, shard, orders, paid, revenue)
    SELECT day, txid_current() % 16, sum(orders), sum(paid), sum(revenue)
    FROM (
      SELECT (created_at AT TIME ZONE 'UTC')::date AS day, sign AS orders, 0 AS paid, 0::bigint AS revenue FROM c
      UNION ALL
      SELECT (paid_at AT TIME ZONE 'UTC')::date, 0, sign, sign * total FROM c WHERE paid_at IS NOT NULL
      UNION ALL
      SELECT (refunded_at AT TIME ZONE 'UTC')::date, 0, 0, -sign * total FROM c WHERE refunded_at IS NOT NULL
    ) AS change
    GROUP BY day HAVING sum(orders) <> 0 OR sum(paid) <> 0 OR sum(revenue) <> 0 ORDER BY day
    ON CONFLICT (day, shard) DO UPDATE
      SET orders = d.orders + excluded.orders, paid = d.paid + excluded.paid, revenue = d.revenue + excluded.revenue
    RETURNING 1
  )
  -- Only products still there: a product deleted sets its orders' product_id to null, which
  -- takes their units from a product_sales row its deletion has already removed.
  INSERT INTO product_sales AS p (product_id, units)
  SELECT c.product_id, sum(c.sign * c.quantity) FROM c JOIN product ON product.id = c.product_id
  WHERE c.status IN ('paid', 'shipped')
  GROUP BY c.product_id HAVING sum(c.sign * c.quantity) <> 0 ORDER BY c.product_id
  ON CONFLICT (product_id) DO UPDATE SET units = p.units + excluded.units;
$$;--> statement-breakpoint
CREATE FUNCTION count_sales() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    DELETE FROM sales_day;
    DELETE FROM product_sales;
  ELSIF TG_OP = 'INSERT' THEN
    IF NOT EXISTS (SELECT 1 FROM new_orders WHERE paid_at IS NOT NULL) THEN
      -- The hot path, every booking (unpaid, one row, inside the product row's lock): its day
      -- only, straight from the new rows.
      INSERT INTO sales_day AS d (day, shard, orders)
      SELECT (created_at AT TIME ZONE 'UTC')::date, txid_current() % 16, count(*) FROM new_orders
      GROUP BY 1 ORDER BY 1
      ON CONFLICT (day, shard) DO UPDATE SET orders = d.orders + excluded.orders;
    ELSE
      PERFORM add_sales((SELECT jsonb_agg(jsonb_build_object('sign', 1, 'status', status, 'product_id', product_id,
        'quantity', quantity, 'total', total_price, 'created_at', created_at, 'paid_at', paid_at,
        'refunded_at', refunded_at)) FROM new_orders));
    END IF;
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM add_sales((SELECT jsonb_agg(jsonb_build_object('sign', -1, 'status', status, 'product_id', product_id,
      'quantity', quantity, 'total', total_price, 'created_at', created_at, 'paid_at', paid_at,
      'refunded_at', refunded_at)) FROM old_orders));
  ELSE
    PERFORM add_sales((SELECT jsonb_agg(c) FROM (
      SELECT jsonb_build_object('sign', 1, 'status', status, 'product_id', product_id, 'quantity', quantity,
        'total', total_price, 'created_at', created_at, 'paid_at', paid_at, 'refunded_at', refunded_at) AS c
      FROM new_orders
      UNION ALL
      SELECT jsonb_build_object('sign', -1, 'status', status, 'product_id', product_id, 'quantity', quantity,
        'total', total_price, 'created_at', created_at, 'paid_at', paid_at, 'refunded_at', refunded_at)
      FROM old_orders) AS changed));
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER order_sales_insert AFTER INSERT ON "order"
  REFERENCING NEW TABLE AS new_orders FOR EACH STATEMENT EXECUTE FUNCTION count_sales();--> statement-breakpoint
CREATE TRIGGER order_sales_update AFTER UPDATE ON "order"
  REFERENCING OLD TABLE AS old_orders NEW TABLE AS new_orders FOR EACH STATEMENT EXECUTE FUNCTION count_sales();--> statement-breakpoint
CREATE TRIGGER order_sales_delete AFTER DELETE ON "order"
  REFERENCING OLD TABLE AS old_orders FOR EACH STATEMENT EXECUTE FUNCTION count_sales();--> statement-breakpoint
CREATE TRIGGER order_sales_truncate AFTER TRUNCATE ON "order"
  FOR EACH STATEMENT EXECUTE FUNCTION count_sales();--> statement-breakpoint

-- What is there already: an invoice for every order paid so far, numbered in the order they were
-- paid, and the charts' sums. No mails for the past.
INSERT INTO invoice (number, order_id, issued_at)
SELECT row_number() OVER (ORDER BY paid_at, id), id, paid_at FROM "order" WHERE paid_at IS NOT NULL;--> statement-breakpoint
UPDATE invoice_sequence SET next = (SELECT coalesce(max(number), 0) + 1 FROM invoice);--> statement-breakpoint
INSERT INTO sales_day (day, shard, orders, paid, revenue)
SELECT day, 0, sum(orders), sum(paid), sum(revenue) FROM (
  SELECT (created_at AT TIME ZONE 'UTC')::date AS day, 1 AS orders, 0 AS paid, 0::bigint AS revenue FROM "order"
  UNION ALL
  SELECT (paid_at AT TIME ZONE 'UTC')::date, 0, 1, total_price FROM "order" WHERE paid_at IS NOT NULL
  UNION ALL
  SELECT (refunded_at AT TIME ZONE 'UTC')::date, 0, 0, -total_price FROM "order" WHERE refunded_at IS NOT NULL
) AS c GROUP BY day;--> statement-breakpoint
INSERT INTO product_sales (product_id, units)
SELECT product_id, sum(quantity) FROM "order"
WHERE status IN ('paid', 'shipped') AND product_id IS NOT NULL GROUP BY product_id;
