-- The retention job (features/retention) removes rate-limit counters whose window ended long ago, the
-- oldest first, a batch at a time: this index serves each batch in order at any size of the table.
CREATE INDEX "rate_limit_window_start_idx" ON "rate_limit" USING btree ("window_start");