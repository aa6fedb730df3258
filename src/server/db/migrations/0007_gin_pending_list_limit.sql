-- Every GIN index of the shop keeps at most 128 kB of rows not yet merged into it (its "pending
-- list", 4 MB by default). A search reads the whole pending list on each query, and autovacuum
-- merges it only after a fifth of a table has changed: at 1,000,000 orders, 6,000 new orders left
-- 86 pending pages in order_email_trgm_idx and an order search went from 38 ms to 480 ms. At 128 kB
-- the inserting transaction merges the list about every thousand orders, in milliseconds
-- (docs/decisions/order-lists.md). ALTER INDEX ... SET takes a brief lock and rewrites nothing.
ALTER INDEX "order_email_trgm_idx" SET (gin_pending_list_limit = 128);--> statement-breakpoint
ALTER INDEX "order_name_trgm_idx" SET (gin_pending_list_limit = 128);--> statement-breakpoint
ALTER INDEX "order_product_name_trgm_idx" SET (gin_pending_list_limit = 128);--> statement-breakpoint
ALTER INDEX "user_name_trgm_idx" SET (gin_pending_list_limit = 128);--> statement-breakpoint
ALTER INDEX "user_email_trgm_idx" SET (gin_pending_list_limit = 128);--> statement-breakpoint
ALTER INDEX "search_word_trgm_idx" SET (gin_pending_list_limit = 128);--> statement-breakpoint
ALTER INDEX "product_title_idx" SET (gin_pending_list_limit = 128);--> statement-breakpoint
ALTER INDEX "product_search_idx" SET (gin_pending_list_limit = 128);--> statement-breakpoint
ALTER INDEX "product_name_trgm_idx" SET (gin_pending_list_limit = 128);
