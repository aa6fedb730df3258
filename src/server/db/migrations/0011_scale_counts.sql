-- Costs that stay flat as the shop grows (npm run bench:scale, docs/decisions/order-lists.md):
-- a category's pages in every order (name, price, newest) are read index-only up to the page, and
-- the planner learns how common a search term is in order.search_text from a 500-entry histogram
-- (100 by default), so a name in 3 % of the orders is counted from the first rows that match
-- instead of from a trigram bitmap of all of them.
DROP INDEX "product_category_name_idx";--> statement-breakpoint
CREATE INDEX "product_category_price_idx" ON "product" USING btree ("category","price","id");--> statement-breakpoint
CREATE INDEX "product_category_created_idx" ON "product" USING btree ("category","created_at","id");--> statement-breakpoint
CREATE INDEX "product_category_name_idx" ON "product" USING btree ("category","name","id");--> statement-breakpoint
ALTER TABLE "order" ALTER COLUMN "search_text" SET STATISTICS 500;
