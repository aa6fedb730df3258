CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
DROP INDEX "user_role_idx";--> statement-breakpoint
DROP INDEX "review_created_idx";--> statement-breakpoint
CREATE INDEX "user_created_idx" ON "user" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "user_role_created_idx" ON "user" USING btree ("role","created_at","id");--> statement-breakpoint
CREATE INDEX "user_name_trgm_idx" ON "user" USING gin ("name" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "user_email_trgm_idx" ON "user" USING gin ("email" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "review_newest_idx" ON "review" USING btree ("created_at","id");