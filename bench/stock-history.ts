// bench:scale's stock ledger (issue 31): one product whose history grows with the orders (as many
// movements as orders: 1,000,000 at the largest size), and products with thresholds of their own
// on the low-stock list. Seeded in SQL straight into the tables, as seed:scale seeds orders: a
// movement's trigger is on product, not on stock_movement, so rows written here are plain inserts.
import type pg from "pg";

/** The product whose history is read; made once, with its initial movement (by the trigger). */
export async function historyProduct(client: pg.Client): Promise<string> {
  const { rows } = await client.query<{ id: string }>(
    `insert into product (name, description, image, price, quantity, category)
     values ('Bench ledger fan', 'A fan whose stock moved a million times.', '/media/products/gale-120-high-static-pressure-fan.svg', 25, 1000, 'cooling-fans')
     returning id`,
  );
  const id = rows[0]?.id;
  if (!id) throw new Error("no history product");
  return id;
}

/**
 * Adds `count` movements to the product's history (an even number keeps its stock: bookings of 5
 * units and their removals, in turn, a second apart up to now), in batches of 100,000 rows.
 */
export async function seedStockHistory(client: pg.Client, productId: string, count: number): Promise<void> {
  const batch = 100_000;
  for (let done = 0; done < count; done += batch) {
    const n = Math.min(batch, count - done);
    await client.query(
      `insert into stock_movement (product_id, change, stock_after, reason, created_at)
       select $1, case when g % 2 = 1 then -5 else 5 end, case when g % 2 = 1 then 995 else 1000 end,
              case when g % 2 = 1 then 'booking' else 'removal' end,
              now() - make_interval(secs => $2 - g)
       from generate_series(1, $3::int) g`,
      [productId, n + 1, n],
    );
  }
  await client.query("analyze stock_movement");
}

/**
 * Gives a tenth of the products a threshold of their own above their stock, in the ledger's way
 * (the threshold trigger keeps low_stock_product), so the overview's low-stock list is long.
 */
export async function lowStockProducts(client: pg.Client): Promise<void> {
  await client.query(
    `update product set low_stock_threshold = quantity + 10
     where low_stock_threshold is null and id in (select id from product tablesample bernoulli (10))`,
  );
}

/** The id of the movement in the middle of the product's history: a cursor there. */
export async function middleMovement(client: pg.Client, productId: string): Promise<string> {
  const { rows } = await client.query<{ id: string }>(
    `select id::text as id from stock_movement where product_id = $1 order by id desc
     offset (select count(*) / 2 from stock_movement where product_id = $1) limit 1`,
    [productId],
  );
  return rows[0]?.id ?? "";
}
