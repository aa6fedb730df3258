-- Mail sending with leases and retention jobs (issue 28; features/mail/outbox.ts, features/retention):
-- a sender claims an outbox row with a lease (lease_id, and due_at moved to the lease's end) instead
-- of holding a transaction open while the mail server answers; the indexes let the retention job
-- read its next batch in order (outbox rows sent or given up, idempotency keys, cancelled sandbox
-- intents), so each pass costs the same at any size.
ALTER TABLE "mail_outbox" ADD COLUMN "lease_id" uuid;--> statement-breakpoint
CREATE INDEX "mail_outbox_done_idx" ON "mail_outbox" USING btree (coalesce("sent_at", "dropped_at")) WHERE "mail_outbox"."sent_at" is not null or "mail_outbox"."dropped_at" is not null;--> statement-breakpoint
CREATE INDEX "idempotency_key_created_idx" ON "idempotency_key" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "sandbox_intent_canceled_idx" ON "sandbox_intent" USING btree ("created_at") WHERE "sandbox_intent"."status" = 'canceled';
