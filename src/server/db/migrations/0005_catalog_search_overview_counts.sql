-- Trigram indexes (product names, search words) need pg_trgm. It is a trusted extension: the shop's
-- own role may create it, on a managed PostgreSQL too.
CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
CREATE TABLE "search_word" (
	"word" text PRIMARY KEY NOT NULL
);
--> statement-breakpoint
CREATE TABLE "low_stock_product" (
	"product_id" uuid PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"quantity" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "overview_count" (
	"key" text NOT NULL,
	"shard" smallint NOT NULL,
	"n" bigint NOT NULL,
	CONSTRAINT "overview_count_key_shard_pk" PRIMARY KEY("key","shard")
);
--> statement-breakpoint
ALTER TABLE "product" ADD COLUMN "title_vector" "tsvector" GENERATED ALWAYS AS (setweight(to_tsvector('english', "name"), 'A') || setweight(to_tsvector('english', case "category" when 'keyboards' then 'keyboards' when 'mice' then 'mice mouse' when 'memory' then 'memory ram' when 'headphones' then 'headphones headset' when 'cooling-fans' then 'cooling fans' end), 'B') || array_to_tsvector(array[case "category" when 'keyboards' then 'category keyboards' when 'mice' then 'category mice' when 'memory' then 'category memory' when 'headphones' then 'category headphones' when 'cooling-fans' then 'category cooling-fans' end])) STORED;--> statement-breakpoint
ALTER TABLE "product" ADD COLUMN "search_vector" "tsvector" GENERATED ALWAYS AS (setweight(to_tsvector('english', "name"), 'A') || setweight(to_tsvector('english', case "category" when 'keyboards' then 'keyboards' when 'mice' then 'mice mouse' when 'memory' then 'memory ram' when 'headphones' then 'headphones headset' when 'cooling-fans' then 'cooling fans' end), 'B') || array_to_tsvector(array[case "category" when 'keyboards' then 'category keyboards' when 'mice' then 'category mice' when 'memory' then 'category memory' when 'headphones' then 'category headphones' when 'cooling-fans' then 'category cooling-fans' end]) || setweight(to_tsvector('english', "description"), 'C')) STORED;--> statement-breakpoint
ALTER TABLE "low_stock_product" ADD CONSTRAINT "low_stock_product_product_id_product_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."product"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "search_word_trgm_idx" ON "search_word" USING gin ("word" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "low_stock_product_order_idx" ON "low_stock_product" USING btree ("quantity","name","product_id");--> statement-breakpoint
CREATE INDEX "product_title_idx" ON "product" USING gin ("title_vector");--> statement-breakpoint
CREATE INDEX "product_search_idx" ON "product" USING gin ("search_vector");--> statement-breakpoint
CREATE INDEX "product_name_trgm_idx" ON "product" USING gin ("name" gin_trgm_ops);--> statement-breakpoint
-- Hand-written below: the triggers that keep search_word, low_stock_product and overview_count
-- (src/server/db/schema/catalog.ts, overview.ts) in step with every change, in its transaction.
-- Each trigger is created before its table is read to fill it: CREATE TRIGGER locks out writers
-- until this migration commits, so no change falls between the fill and the trigger.

-- Every word of a product's name and description, as the 'simple' configuration splits them.
CREATE FUNCTION search_words_of_new_products() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO search_word (word)
  SELECT DISTINCT w FROM new_products,
    unnest(tsvector_to_array(to_tsvector('simple', new_products.name || ' ' || new_products.description))) AS w
  ORDER BY w
  ON CONFLICT DO NOTHING;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER product_search_words_insert AFTER INSERT ON product
  REFERENCING NEW TABLE AS new_products
  FOR EACH STATEMENT EXECUTE FUNCTION search_words_of_new_products();--> statement-breakpoint
CREATE FUNCTION search_words_of_product() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO search_word (word)
  SELECT DISTINCT w FROM unnest(tsvector_to_array(to_tsvector('simple', NEW.name || ' ' || NEW.description))) AS w
  ORDER BY w
  ON CONFLICT DO NOTHING;
  RETURN NULL;
END $$;--> statement-breakpoint
-- Only when the text changes: a stock update (every order) does not run it.
CREATE TRIGGER product_search_words_update AFTER UPDATE OF name, description ON product
  FOR EACH ROW WHEN (OLD.name IS DISTINCT FROM NEW.name OR OLD.description IS DISTINCT FROM NEW.description)
  EXECUTE FUNCTION search_words_of_product();--> statement-breakpoint
INSERT INTO search_word (word)
SELECT DISTINCT w FROM product, unnest(tsvector_to_array(to_tsvector('simple', product.name || ' ' || product.description))) AS w
ON CONFLICT DO NOTHING;--> statement-breakpoint
-- The categories' own words (CATEGORY_SEARCH_WORDS in schema/catalog.ts), which no product need spell.
INSERT INTO search_word (word)
SELECT unnest(tsvector_to_array(to_tsvector('simple', 'keyboards mice mouse memory ram headphones headset cooling fans')))
ON CONFLICT DO NOTHING;--> statement-breakpoint

-- Products below LOW_STOCK_THRESHOLD (50, src/shared/constants.ts) units.
CREATE FUNCTION low_stock_of_new_products() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO low_stock_product (product_id, name, quantity)
  SELECT id, name, quantity FROM new_products WHERE quantity < 50;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER product_low_stock_insert AFTER INSERT ON product
  REFERENCING NEW TABLE AS new_products
  FOR EACH STATEMENT EXECUTE FUNCTION low_stock_of_new_products();--> statement-breakpoint
CREATE FUNCTION low_stock_of_product() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.quantity < 50 THEN
    INSERT INTO low_stock_product (product_id, name, quantity) VALUES (NEW.id, NEW.name, NEW.quantity)
    ON CONFLICT (product_id) DO UPDATE SET name = excluded.name, quantity = excluded.quantity;
  ELSE
    DELETE FROM low_stock_product WHERE product_id = NEW.id;
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
-- Only for products low before or after: a stock update of a well-stocked product does not run it.
CREATE TRIGGER product_low_stock_update AFTER UPDATE OF quantity, name ON product
  FOR EACH ROW WHEN (OLD.quantity < 50 OR NEW.quantity < 50)
  EXECUTE FUNCTION low_stock_of_product();--> statement-breakpoint
INSERT INTO low_stock_product (product_id, name, quantity)
SELECT id, name, quantity FROM product WHERE quantity < 50;--> statement-breakpoint

-- Orders by status and users. A statement adds its net change per key to one of 16 shards, picked
-- by its transaction's id: concurrent transactions mostly hold different rows, and one transaction
-- always the same. Keys are taken in order, so two statements never lock each other's rows in turn.
CREATE FUNCTION count_orders() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    UPDATE overview_count SET n = 0 WHERE key LIKE 'orders:%';
  ELSIF TG_OP = 'INSERT' THEN
    INSERT INTO overview_count AS c (key, shard, n)
    SELECT 'orders:' || status, txid_current() % 16, count(*) FROM new_orders GROUP BY status ORDER BY 1
    ON CONFLICT (key, shard) DO UPDATE SET n = c.n + excluded.n;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO overview_count AS c (key, shard, n)
    SELECT 'orders:' || status, txid_current() % 16, -count(*) FROM old_orders GROUP BY status ORDER BY 1
    ON CONFLICT (key, shard) DO UPDATE SET n = c.n + excluded.n;
  ELSE
    INSERT INTO overview_count AS c (key, shard, n)
    SELECT 'orders:' || status, txid_current() % 16, sum(delta)
    FROM (SELECT status, 1 AS delta FROM new_orders UNION ALL SELECT status, -1 FROM old_orders) AS change
    GROUP BY status HAVING sum(delta) <> 0 ORDER BY 1
    ON CONFLICT (key, shard) DO UPDATE SET n = c.n + excluded.n;
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER order_count_insert AFTER INSERT ON "order"
  REFERENCING NEW TABLE AS new_orders FOR EACH STATEMENT EXECUTE FUNCTION count_orders();--> statement-breakpoint
CREATE TRIGGER order_count_update AFTER UPDATE ON "order"
  REFERENCING OLD TABLE AS old_orders NEW TABLE AS new_orders FOR EACH STATEMENT EXECUTE FUNCTION count_orders();--> statement-breakpoint
CREATE TRIGGER order_count_delete AFTER DELETE ON "order"
  REFERENCING OLD TABLE AS old_orders FOR EACH STATEMENT EXECUTE FUNCTION count_orders();--> statement-breakpoint
CREATE TRIGGER order_count_truncate AFTER TRUNCATE ON "order"
  FOR EACH STATEMENT EXECUTE FUNCTION count_orders();--> statement-breakpoint
INSERT INTO overview_count (key, shard, n)
SELECT 'orders:' || status, 0, count(*) FROM "order" GROUP BY status;--> statement-breakpoint

CREATE FUNCTION count_users() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    UPDATE overview_count SET n = 0 WHERE key = 'users';
  ELSIF TG_OP = 'INSERT' THEN
    INSERT INTO overview_count AS c (key, shard, n)
    SELECT 'users', txid_current() % 16, count(*) FROM new_users HAVING count(*) > 0
    ON CONFLICT (key, shard) DO UPDATE SET n = c.n + excluded.n;
  ELSE
    INSERT INTO overview_count AS c (key, shard, n)
    SELECT 'users', txid_current() % 16, -count(*) FROM old_users HAVING count(*) > 0
    ON CONFLICT (key, shard) DO UPDATE SET n = c.n + excluded.n;
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER user_count_insert AFTER INSERT ON "user"
  REFERENCING NEW TABLE AS new_users FOR EACH STATEMENT EXECUTE FUNCTION count_users();--> statement-breakpoint
CREATE TRIGGER user_count_delete AFTER DELETE ON "user"
  REFERENCING OLD TABLE AS old_users FOR EACH STATEMENT EXECUTE FUNCTION count_users();--> statement-breakpoint
CREATE TRIGGER user_count_truncate AFTER TRUNCATE ON "user"
  FOR EACH STATEMENT EXECUTE FUNCTION count_users();--> statement-breakpoint
INSERT INTO overview_count (key, shard, n) SELECT 'users', 0, count(*) FROM "user";
