-- The activity log (issue 32, item 4; docs/product.md, "Activity log"): one row per admin action
-- and security event, written in the transaction of the action (features/activity/record.ts).
-- Append-only: the triggers below refuse UPDATE, DELETE and TRUNCATE for every role, the owner's
-- included; PUBLIC is not granted them and the shop's role gives them up. (A restore runs with
-- session_replication_role =
-- replica, which holds these triggers off as it does every other, so a backup can be loaded.)
CREATE TABLE "activity_log" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"actor_id" text,
	"actor_email" text,
	"action" text NOT NULL,
	"target_type" text,
	"target_id" text,
	"changes" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"request_id" text,
	"address" text,
	"user_agent" text,
	CONSTRAINT "activity_log_action_known" CHECK ("activity_log"."action" in ('admin.signed_in', 'admin.sign_in_failed', 'user.role_changed', 'user.removed', 'user.sessions_ended', 'user.factor_added', 'user.factor_removed', 'order.refunded', 'order.shipped', 'order.removed', 'product.created', 'product.updated', 'product.archived', 'product.restored', 'product.deleted', 'stock.adjusted', 'stock.imported', 'review.hidden', 'review.restored', 'backup.run')),
	CONSTRAINT "activity_log_target_known" CHECK ("activity_log"."target_type" in ('user', 'order', 'product', 'review', 'backup'))
);
--> statement-breakpoint
CREATE INDEX "activity_log_at_idx" ON "activity_log" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "activity_log_actor_idx" ON "activity_log" USING btree ("actor_email","created_at","id");--> statement-breakpoint
CREATE INDEX "activity_log_action_idx" ON "activity_log" USING btree ("action","created_at","id");--> statement-breakpoint
CREATE INDEX "activity_log_target_idx" ON "activity_log" USING btree ("target_type","target_id","created_at","id");--> statement-breakpoint

-- Hand-written below.
CREATE FUNCTION activity_log_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'activity_log is append-only: % refused', TG_OP USING ERRCODE = 'insufficient_privilege';
END $$;--> statement-breakpoint
CREATE TRIGGER activity_log_no_change BEFORE UPDATE OR DELETE ON activity_log
  FOR EACH ROW EXECUTE FUNCTION activity_log_append_only();--> statement-breakpoint
CREATE TRIGGER activity_log_no_truncate BEFORE TRUNCATE ON activity_log
  FOR EACH STATEMENT EXECUTE FUNCTION activity_log_append_only();--> statement-breakpoint
REVOKE UPDATE, DELETE, TRUNCATE ON activity_log FROM PUBLIC;--> statement-breakpoint
-- The shop's own role runs the migrations and owns the table: it keeps INSERT and SELECT only (a
-- superuser running them is not bound by privileges, and the triggers still hold).
REVOKE UPDATE, DELETE, TRUNCATE, REFERENCES, TRIGGER ON activity_log FROM CURRENT_USER;
