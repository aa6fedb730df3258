-- Credit notes (issue 33, item 5; docs/product.md, "Credit notes"): a refunded order that has an
-- invoice gets a credit note, numbered 1, 2, 3, … without a gap in a series of its own, taken from
-- credit_note_sequence by the trigger that sees the order become refunded, in the refunding
-- transaction. The order keeps its credit note's number (credit_note_number), so every read of an
-- order answers it without a join. ADD COLUMN locks "order" against writers until this commits.
CREATE TABLE "credit_note_sequence" (
	"one" boolean PRIMARY KEY DEFAULT true NOT NULL,
	"next" bigint NOT NULL,
	CONSTRAINT "credit_note_sequence_one_row" CHECK ("credit_note_sequence"."one")
);
--> statement-breakpoint
CREATE TABLE "credit_note" (
	"number" bigint PRIMARY KEY NOT NULL,
	"order_id" uuid NOT NULL,
	"invoice_number" bigint NOT NULL,
	"amount_cents" integer NOT NULL,
	"issued_at" timestamp with time zone NOT NULL,
	CONSTRAINT "credit_note_order_idx" UNIQUE("order_id"),
	CONSTRAINT "credit_note_invoice_idx" UNIQUE("invoice_number"),
	CONSTRAINT "credit_note_amount" CHECK ("credit_note"."amount_cents" >= 0)
);
--> statement-breakpoint
ALTER TABLE "order" ADD COLUMN "credit_note_number" bigint;--> statement-breakpoint
ALTER TABLE "credit_note" ADD CONSTRAINT "credit_note_order_id_order_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."order"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "credit_note" ADD CONSTRAINT "credit_note_invoice_number_invoice_number_fk" FOREIGN KEY ("invoice_number") REFERENCES "public"."invoice"("number") ON DELETE restrict ON UPDATE no action;
--> statement-breakpoint
-- What is there already: a credit note for every refunded order with an invoice, numbered in the
-- order they were refunded, issued at the refund, for the order's gross amount.
INSERT INTO credit_note (number, order_id, invoice_number, amount_cents, issued_at)
SELECT row_number() OVER (ORDER BY o.refunded_at NULLS FIRST, o.id), o.id, i.number, o.gross_cents,
  coalesce(o.refunded_at, o.paid_at, o.created_at)
FROM "order" o JOIN invoice i ON i.order_id = o.id
WHERE o.status = 'refunded';--> statement-breakpoint
UPDATE "order" o SET credit_note_number = c.number FROM credit_note c WHERE c.order_id = o.id;--> statement-breakpoint
INSERT INTO credit_note_sequence (one, next) SELECT true, coalesce(max(number), 0) + 1 FROM credit_note;--> statement-breakpoint
-- The next number, in the transaction that refunds the order: the sequence's one row is locked
-- until that transaction ends, so refunds take turns here and a rollback gives the number back.
-- Before the row is written, so the order keeps the number; an order without an invoice (never
-- paid, which the lifecycle does not refund) gets none, and a refunded order never another.
CREATE FUNCTION issue_credit_note() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  invoiced bigint;
  n bigint;
BEGIN
  SELECT number INTO invoiced FROM invoice WHERE order_id = NEW.id;
  IF invoiced IS NULL OR EXISTS (SELECT 1 FROM credit_note WHERE order_id = NEW.id) THEN
    RETURN NEW;
  END IF;
  UPDATE credit_note_sequence SET next = next + 1 RETURNING next - 1 INTO n;
  INSERT INTO credit_note (number, order_id, invoice_number, amount_cents, issued_at)
  VALUES (n, NEW.id, invoiced, NEW.gross_cents, coalesce(NEW.refunded_at, now()));
  NEW.credit_note_number := n;
  RETURN NEW;
END $$;--> statement-breakpoint
CREATE TRIGGER order_credit_note BEFORE UPDATE ON "order"
  FOR EACH ROW WHEN (NEW.status = 'refunded' AND OLD.status <> 'refunded')
  EXECUTE FUNCTION issue_credit_note();
