-- Written by hand before drizzle-kit's statements: these indexes are built over every order, about
-- 20 s at 1,000,000 orders, and one of them may take longer than the pool's statement timeout
-- (db/client.ts) on a slower machine. SET LOCAL lasts until the migrations' transaction ends.
SET LOCAL statement_timeout = 0;--> statement-breakpoint
SET LOCAL maintenance_work_mem = '256MB';--> statement-breakpoint
DROP INDEX "order_user_created_idx";--> statement-breakpoint
DROP INDEX "order_created_idx";--> statement-breakpoint
DROP INDEX "order_status_idx";--> statement-breakpoint
CREATE INDEX "order_user_created_id_idx" ON "order" USING btree ("user_id","created_at","id");--> statement-breakpoint
CREATE INDEX "order_created_id_idx" ON "order" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "order_status_created_id_idx" ON "order" USING btree ("status","created_at","id");--> statement-breakpoint
CREATE INDEX "order_email_trgm_idx" ON "order" USING gin ("email" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "order_name_trgm_idx" ON "order" USING gin ("name" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "order_product_name_trgm_idx" ON "order" USING gin ("product_name" gin_trgm_ops);