import { eq, sql } from "drizzle-orm";
import { migrate } from "drizzle-orm/node-postgres/migrator";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { buildApp } from "../app.js";
import { testConfig } from "../test/app.js";
import { migrationsUpTo, setUpEmptyDatabase } from "../test/migrations.js";
import { confirmWithCard, post } from "../test/payments.js";
import { fromShop, newSession, type TestUser } from "../test/users.js";
import type { Database } from "./client.js";
import { runMigrations } from "./migrate.js";
import { images, invoices, mailOutbox, payments, stockMovements } from "./schema/index.js";

/**
 * Upgrades keep every row (issue 19, item 6): a database at the schema of the last landed release
 * (migrations up to RELEASED, as main stood at cae8e21), with users, products, orders unpaid and
 * paid, payments and an uploaded image in it, is upgraded to the current schema; every row is
 * still there and the same, what the new migrations derive from them is right, and the shop on
 * the upgraded database still pays and removes an order placed before the upgrade.
 */
const RELEASED = "0010_refunds_and_intents";

const database = setUpEmptyDatabase();

/** Every row of the tables the release had, in a stable order, to compare before and after. */
async function contents(db: Database["db"]) {
  // Columns later migrations add (each with its value for the rows there were) are left out; a
  // product's SKU (0019) is checked apart, below.
  const added = [
    "search_text",
    "archived_at",
    "low_stock_threshold",
    "threshold",
    "sku",
    "two_factor_enabled",
    "price_tiers",
    "discount_cents",
    "net_cents",
    "tax_cents",
    "gross_cents",
    "tax_rate_bp",
    "prices_include_tax",
    "discount_code",
    "company_name",
    "company_tax_id",
    "credit_note_number",
    "reminder_mails",
  ]
    .map((c) => ` - '${c}'`)
    .join("");
  const read = (table: string) =>
    db.execute(sql.raw(`select to_jsonb(t)${added} as row from "${table}" t order by 1::text`));
  const tables = ["user", "product", "order", "payment", "image", "overview_count", "low_stock_product"];
  const out: Record<string, unknown[]> = {};
  for (const table of tables)
    out[table] = (await read(table)).rows
      .map((r) => r.row)
      .sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));
  return out;
}

describe("upgrading from the last release", () => {
  it("keeps every row, derives invoices and sums from them, and an old unpaid order can be paid or removed", async () => {
    const db = database.db;
    await migrate(db, { migrationsFolder: migrationsUpTo(RELEASED) });

    // A shop as the release left it.
    // In SQL, with the release's columns: the schema of today names columns later migrations add.
    const [customer] = (
      await db.execute<{ id: string }>(sql`
        insert into "user" (id, name, email, phone) values ('old-customer', 'Olga Older', 'olga@example.com', '+1 555 0100')
        returning id`)
    ).rows;
    const [product] = (
      await db.execute<{ id: string }>(sql`
        insert into product (name, description, image, price, quantity, category)
        values ('Legacy Switch Keyboard', 'Sold before the upgrade.', '/media/products/x.svg', 40, 500, 'keyboards')
        returning id`)
    ).rows;
    const webp = await sharp({ create: { width: 4, height: 4, channels: 3, background: "#336699" } })
      .webp()
      .toBuffer();
    const key = "a".repeat(64);
    await db.insert(images).values({
      key,
      contentType: "image/webp",
      data: webp,
      width: 4,
      height: 4,
      byteSize: webp.length,
      createdBy: customer?.id,
    });
    // In SQL with the release's columns: the schema in code has columns the release had not.
    const order = (status: "pending" | "paid", createdAt: Date) =>
      sql`(${customer?.id}, ${product?.id}::uuid, 'Legacy Switch Keyboard', ${`/api/images/${key}.webp`},
        'Olga Older', 'olga@example.com', '1 Old Road', '+1 555 0100', 10, 40, 400, ${status}::order_status,
        ${status === "paid" ? `pi_old_${createdAt.getTime()}` : null},
        ${status === "paid" ? new Date(createdAt.getTime() + 60_000).toISOString() : null}::timestamptz,
        ${new Date(Date.now() + 86_400_000).toISOString()}::timestamptz, ${createdAt.toISOString()}::timestamptz)`;
    const day = 86_400_000;
    const placed = (
      await db.execute<{ id: string; status: string; transactionId: string | null }>(sql`
        insert into "order" (user_id, product_id, product_name, img, name, email, address, phone, quantity,
          unit_price, total_price, status, transaction_id, paid_at, expires_at, created_at)
        values ${sql.join(
          [
            order("paid", new Date(Date.now() - 3 * day)),
            order("paid", new Date(Date.now() - 2 * day)),
            order("pending", new Date(Date.now() - 60_000)),
            order("pending", new Date(Date.now() - 30_000)),
          ],
          sql`, `,
        )}
        returning id, status::text as status, transaction_id as "transactionId"`)
    ).rows;
    const paidBefore = placed.filter((o) => o.status === "paid");
    for (const paid of paidBefore)
      await db.insert(payments).values({
        orderId: paid.id,
        provider: "sandbox",
        intentId: paid.transactionId ?? "",
        amount: 40_000,
        currency: "usd",
        cardBrand: "visa",
        cardLast4: "4242",
      });
    const before = await contents(db);

    await runMigrations(database);

    // Every row as it was.
    expect(await contents(db)).toEqual(before);
    // Invoices for the orders paid before, numbered in the order they were paid; no mails for the past.
    const numbered = await db.select().from(invoices).orderBy(invoices.number);
    expect(numbered.map((i) => [i.number, i.orderId])).toEqual(paidBefore.map((o, i) => [i + 1, o.id]));
    expect(await db.select().from(mailOutbox)).toEqual([]);
    // Orders booked before prices (0024): no discount or tax, charged their total.
    const amounts = await db.execute<{ wrong: number }>(sql`select count(*)::int as wrong from "order"
      where net_cents <> total_price * 100 or gross_cents <> total_price * 100 or tax_cents <> 0 or discount_cents <> 0`);
    expect(amounts.rows[0]?.wrong).toBe(0);
    // Every product got a SKU of its category and a number, each its own (0019).
    const skus = await db.execute<{ sku: string; category: string }>(
      sql`select sku, category::text as category from product`,
    );
    expect(skus.rows.length).toBeGreaterThan(0);
    for (const { sku, category } of skus.rows)
      expect(sku).toMatch(new RegExp(`^${category.replace("-", "").slice(0, 4).toUpperCase()}-\\d{6}$`));
    expect(new Set(skus.rows.map((r) => r.sku)).size).toBe(skus.rows.length);
    const [sums] = (
      await db.execute<{ orders: number; revenue: number; units: number }>(sql`
        select (select sum(orders)::int from sales_day) as orders, (select sum(revenue)::int from sales_day) as revenue,
               (select sum(units)::int from product_sales) as units`)
    ).rows;
    expect(sums).toEqual({ orders: 4, revenue: 800, units: 20 });
    // The stock ledger (0018) opens with each product's stock as the upgrade found it.
    expect(
      await db
        .select({
          reason: stockMovements.reason,
          change: stockMovements.change,
          after: stockMovements.stockAfter,
        })
        .from(stockMovements)
        .where(eq(stockMovements.productId, product?.id ?? "")),
    ).toEqual([{ reason: "initial", change: 500, after: 500 }]);

    // The shop on the upgraded database: the old unpaid orders are paid and removed as any other.
    const app = await buildApp(testConfig(), database, { logger: false });
    try {
      await app.ready();
      const shop = { app, database };
      const olga: TestUser = {
        id: customer?.id ?? "",
        email: "olga@example.com",
        password: "",
        cookie: await newSession(app, customer?.id ?? ""),
      };
      const [toPay, toRemove] = placed.filter((o) => o.status === "pending");
      const transactionId = await confirmWithCard(shop, olga, toPay?.id ?? "");
      const paid = await post(shop, olga, `/api/orders/${toPay?.id}/pay`, { transactionId });
      expect(paid.statusCode, paid.body).toBe(200);
      expect(paid.json().status).toBe("paid");
      const [invoice] = await db
        .select()
        .from(invoices)
        .where(eq(invoices.orderId, toPay?.id ?? ""));
      expect(invoice?.number).toBe(3);
      const removed = await fromShop(app, "DELETE", `/api/orders/${toRemove?.id}`, olga.cookie);
      expect(removed.statusCode).toBe(204);
      const image = await app.inject({ url: `/api/images/${key}.webp` });
      expect(image.statusCode).toBe(200);
      expect(image.rawPayload.equals(webp)).toBe(true);
    } finally {
      await app.close();
    }
  });
});
