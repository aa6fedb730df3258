import { eq, notLike, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { MIN_ORDER_QUANTITY } from "../../../shared/constants.js";
import { orderMessages } from "../../../shared/messages/orders.js";
import { loadConfig } from "../../config.js";
import { orders, products } from "../../db/schema/index.js";
import { setUpTestApp } from "../app.js";
import { productStock, stockedProduct } from "../products.js";
import {
  cookieHeader,
  followVerificationLink,
  memoryMailer,
  ORIGIN,
  signUp,
  type TestUser,
  uniqueEmail,
} from "../users.js";

/**
 * Booking limits (issue 28, item 2; docs/product.md, "Booking limits"), with the shop's defaults:
 * bookings per account and per client address an hour, and the share of a product's stock one
 * customer may hold unpaid and one address may book within a hold's time. And the audit's attack:
 * six accounts from one address, verified through their mails, try to book everything.
 */

const DEFAULTS = loadConfig({ AUTH_SECRET: "d".repeat(32), DATA_DIR: "/tmp/gearhouse-defaults" }).orders;
const mailer = memoryMailer();
const ctx = setUpTestApp(
  {
    ORDER_MAX_SHARE_PERCENT: String(DEFAULTS.maxSharePercent),
    BOOKING_LIMIT_PER_HOUR: String(DEFAULTS.accountLimitPerHour),
    BOOKING_LIMIT_PER_ADDRESS_PER_HOUR: String(DEFAULTS.addressLimitPerHour),
    // The caps on unpaid orders stay lifted (test/app.ts): the new rules are shown to hold on their own.
  },
  { mailer, rateLimit: { max: 10_000, windowSeconds: 60 } },
);

const ORDER = { address: "1 Loop Road, Austin", phone: "5550123" };
/** A booking from `from`, the client address the shop sees. */
const book = (user: TestUser, productId: string, quantity: number, from: string) =>
  ctx.app.inject({
    method: "POST",
    url: "/api/orders",
    remoteAddress: from,
    headers: { origin: ORIGIN, cookie: user.cookie },
    payload: { productId, quantity, ...ORDER },
  });
const stockOf = async (id: string) => (await productStock(ctx.database.db, id)) ?? 0;

let address = 0;
/** A client address of its own for each test, so their counts do not meet. */
const freshAddress = () => `10.28.${++address}.1`;

describe("booking limits, with the defaults", () => {
  it(`answers 429 with Retry-After past ${DEFAULTS.accountLimitPerHour} bookings of one account an hour`, async () => {
    const productId = await stockedProduct(ctx.database.db, 100_000);
    const customer = await signUp(ctx.app);
    const from = freshAddress();
    for (let n = 0; n < DEFAULTS.accountLimitPerHour; n++)
      expect((await book(customer, productId, 10, from)).statusCode).toBe(201);
    const refused = await book(customer, productId, 10, freshAddress());
    expect(refused.statusCode).toBe(429);
    expect(refused.headers["content-type"]).toContain("application/problem+json");
    expect(Number(refused.headers["retry-after"])).toBeGreaterThan(3000);
    const minutes = Math.ceil(Number(refused.headers["retry-after"]) / 60);
    expect(refused.json().detail).toBe(
      orderMessages.limits.accountRateLimited(DEFAULTS.accountLimitPerHour, minutes),
    );
    // Nothing of the refused booking was kept, and another customer books.
    const held = await ctx.database.db.select().from(orders).where(eq(orders.userId, customer.id));
    expect(held).toHaveLength(DEFAULTS.accountLimitPerHour);
    expect((await book(await signUp(ctx.app), productId, 10, from)).statusCode).toBe(201);
  });

  it(`answers 429 past ${DEFAULTS.addressLimitPerHour} bookings from one address an hour, whatever the account`, async () => {
    const productId = await stockedProduct(ctx.database.db, 100_000);
    const from = freshAddress();
    const perAccount = DEFAULTS.accountLimitPerHour;
    const accounts = await Promise.all(
      Array.from({ length: Math.ceil(DEFAULTS.addressLimitPerHour / perAccount) + 1 }, () => signUp(ctx.app)),
    );
    let booked = 0;
    for (const account of accounts) {
      for (let n = 0; n < perAccount && booked < DEFAULTS.addressLimitPerHour; n++, booked++)
        expect((await book(account, productId, 10, from)).statusCode).toBe(201);
    }
    const last = accounts.at(-1) as TestUser;
    const refused = await book(last, productId, 10, from);
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers["retry-after"])).toBeGreaterThan(3000);
    const minutes = Math.ceil(Number(refused.headers["retry-after"]) / 60);
    expect(refused.json().detail).toBe(
      orderMessages.limits.addressRateLimited(DEFAULTS.addressLimitPerHour, minutes),
    );
    // From elsewhere, the same account books.
    expect((await book(last, productId, 10, freshAddress())).statusCode).toBe(201);
  });

  it(`holds one customer to ${DEFAULTS.maxSharePercent}% of a product's stock, never fewer than ${MIN_ORDER_QUANTITY} units`, async () => {
    const productId = await stockedProduct(ctx.database.db, 400);
    const customer = await signUp(ctx.app);
    const over = await book(customer, productId, 201, freshAddress());
    expect(over.statusCode).toBe(409);
    expect(over.json().detail).toBe(orderMessages.limits.overShare(DEFAULTS.maxSharePercent, 200, 0));
    expect((await book(customer, productId, 150, freshAddress())).statusCode).toBe(201);
    // 250 left: 50% of 250 + the 150 held is 200, so 50 more, not 60.
    const more = await book(customer, productId, 60, freshAddress());
    expect(more.json().detail).toBe(orderMessages.limits.overShare(DEFAULTS.maxSharePercent, 200, 150));
    expect((await book(customer, productId, 50, freshAddress())).statusCode).toBe(201);
    // A product of 15 units: the minimum order is always allowed.
    const small = await stockedProduct(ctx.database.db, 15);
    expect((await book(customer, small, MIN_ORDER_QUANTITY, freshAddress())).statusCode).toBe(201);
    expect(await stockOf(small)).toBe(5);
  });

  it("counts several accounts from one address as one customer: their units of a product share one share", async () => {
    const productId = await stockedProduct(ctx.database.db, 100);
    const from = freshAddress();
    const [one, two] = await Promise.all([signUp(ctx.app), signUp(ctx.app)]);
    if (!one || !two) throw new Error("no accounts");
    expect((await book(one, productId, 50, from)).statusCode).toBe(201);
    const refused = await book(two, productId, 10, from);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().detail).toBe(orderMessages.limits.addressOverShare(DEFAULTS.maxSharePercent, 50));
    expect((await book(two, productId, 10, freshAddress())).statusCode).toBe(201);
  });
});

describe("the audit's attack (issue 28, item 2)", () => {
  it("six accounts from one address, verified through their mails, try to book everything; a real customer still books every product", async () => {
    const db = ctx.database.db;
    const attackerAddress = freshAddress();
    // Six fresh sign-ups from one address, each verified through the link mailed to it.
    const attackers: TestUser[] = [];
    for (let n = 0; n < 6; n++) {
      const email = uniqueEmail(`attacker${n}`);
      const res = await ctx.app.inject({
        method: "POST",
        url: "/api/auth/sign-up/email",
        remoteAddress: attackerAddress,
        headers: { origin: ORIGIN },
        payload: { name: `Attacker ${n}`, email, password: "Passw0rd!", phone: "5550123" },
      });
      expect(res.statusCode).toBe(200);
      const cookie = cookieHeader(res.headers["set-cookie"]);
      expect((await followVerificationLink(ctx.app, mailer, email, cookie)).statusCode).toBe(302);
      attackers.push({ email, password: "Passw0rd!", cookie, id: "" });
    }
    // The demo catalog, and every unit of it in stock.
    const catalog = await db
      .select({ id: products.id, quantity: products.quantity })
      .from(products)
      .where(notLike(products.name, "Test fan%"));
    const stockAtStart = new Map(catalog.map((p) => [p.id, p.quantity]));
    expect(catalog.length).toBeGreaterThan(10);

    // Each account in turn asks for all there is of each product, then for half as much, and so on
    // down to the minimum order, as long as the shop takes bookings from it.
    const answers: number[] = [];
    for (const attacker of attackers) {
      for (const { id } of catalog) {
        for (
          let quantity = await stockOf(id);
          quantity >= MIN_ORDER_QUANTITY;
          quantity = Math.floor(quantity / 2)
        ) {
          const res = await book(attacker, id, quantity, attackerAddress);
          answers.push(res.statusCode);
          if (res.statusCode !== 409) break;
        }
      }
    }
    expect(answers.filter((s) => s === 201).length).toBeGreaterThan(0);
    expect(answers.every((s) => s === 201 || s === 409 || s === 429)).toBe(true);

    // What one address took of each product is at most its share (never fewer than the minimum order).
    const taken = await db.execute<{ product_id: string; units: number }>(
      sql`select product_id, sum(quantity)::int as units from ${orders}
          where email like 'attacker%' group by product_id`,
    );
    for (const row of taken.rows) {
      const start = stockAtStart.get(row.product_id) ?? 0;
      expect(row.units).toBeLessThanOrEqual(
        Math.max(MIN_ORDER_QUANTITY, Math.floor((start * DEFAULTS.maxSharePercent) / 100)),
      );
    }

    // A real customer, from elsewhere, books the minimum order of every product.
    const customer = await signUp(ctx.app);
    for (const { id } of catalog) {
      const res = await book(customer, id, MIN_ORDER_QUANTITY, freshAddress());
      expect(res.statusCode, `${id}: ${res.body}`).toBe(201);
    }
  });
});
