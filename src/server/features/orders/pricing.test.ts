import { randomUUID } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { MAX_ORDER_TOTAL, MIN_CHARGE_CENTS } from "../../../shared/constants.js";
import { pricingMessages } from "../../../shared/messages/pricing.js";
import type { Order } from "../../../shared/orders.js";
import { orderAmounts, type PriceTier, tierPrice } from "../../../shared/pricing.js";
import { problemCodes } from "../../../shared/problem-codes.js";
import { discountCodes, orders, products, shopSettings, users } from "../../db/schema/index.js";
import { setUpTestApp } from "../../test/app.js";
import { confirmWithCard, intentFor, post } from "../../test/payments.js";
import { insertProduct, productStock } from "../../test/products.js";
import { newSession, type TestUser } from "../../test/users.js";

// Prices (docs/product.md, "Prices"): volume tiers, discount codes, tax, the buyer's company.
const ctx = setUpTestApp(
  { BOOKING_LIMIT_PER_ADDRESS_PER_HOUR: "0", BOOKING_LIMIT_PER_HOUR: "1000" },
  { rateLimit: { max: 10_000, windowSeconds: 60 } },
);
const alice = ctx.signedUpUser({ name: "Alice Pricing" });
const shop = {
  get app() {
    return ctx.app;
  },
  get database() {
    return ctx.database;
  },
};

const TIERS: PriceTier[] = [
  { min: 50, price: 22 },
  { min: 100, price: 19 },
];

function tieredProduct(values: Partial<typeof products.$inferInsert> = {}) {
  return insertProduct(ctx.database.db, { price: 25, quantity: 100_000, priceTiers: TIERS, ...values });
}

async function setTax(rateBp: number, pricesIncludeTax: boolean) {
  await ctx.database.db.update(shopSettings).set({ taxRateBp: rateBp, pricesIncludeTax });
}

async function newCode(values: Partial<typeof discountCodes.$inferInsert> = {}) {
  const code = `T${randomUUID().slice(0, 8).toUpperCase()}`;
  const [row] = await ctx.database.db
    .insert(discountCodes)
    .values({ code, kind: "percent", value: 10, ...values })
    .returning();
  if (!row) throw new Error("no code");
  return row;
}

/** Customers made straight in the database with a session each: many, fast, verified. */
async function customers(count: number): Promise<TestUser[]> {
  const rows = Array.from({ length: count }, (_, i) => ({
    id: randomUUID(),
    name: `Buyer ${i}`,
    email: `buyer.${randomUUID()}@example.com`,
    emailVerified: true,
  }));
  await ctx.database.db.insert(users).values(rows);
  return Promise.all(
    rows.map(async (r) => ({
      id: r.id,
      email: r.email,
      password: "",
      cookie: await newSession(ctx.app, r.id),
    })),
  );
}

const book = (user: TestUser, body: Record<string, unknown>) =>
  post(shop, user, "/api/orders", { address: "1 Loop Road, Austin", phone: "5550123", ...body });
const quote = (user: TestUser, body: Record<string, unknown>) => post(shop, user, "/api/orders/quote", body);

const stockOf = (id: string) => productStock(ctx.database.db, id);

describe("volume prices", () => {
  it("prices each quantity by its tier, quotes what it books, and the order keeps the unit price", async () => {
    await setTax(0, false);
    const productId = await tieredProduct();
    for (const [quantity, unit] of [
      [10, 25],
      [49, 25],
      [50, 22],
      [99, 22],
      [100, 19],
      [250, 19],
    ] as const) {
      const q = await quote(alice, { productId, quantity });
      expect(q.statusCode, q.body).toBe(200);
      expect(q.json()).toMatchObject({
        unitPrice: unit,
        totalPrice: unit * quantity,
        grossCents: unit * quantity * 100,
      });
    }
    const res = await book(alice, { productId, quantity: 60 });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({
      unitPrice: 22,
      totalPrice: 1320,
      netCents: 132_000,
      grossCents: 132_000,
    });
    // A later change of the tiers leaves the booked order as it was.
    await ctx.database.db.update(products).set({ priceTiers: [] }).where(eq(products.id, productId));
    const [kept] = await ctx.database.db.select().from(orders).where(eq(orders.id, res.json().id));
    expect(kept?.unitPrice).toBe(22);
  });
});

describe("tax", () => {
  it("adds tax to prices without it, rounded half up, and charges the card the gross", async () => {
    await setTax(825, false);
    try {
      const productId = await tieredProduct({ price: 13, priceTiers: [] });
      const res = await book(alice, { productId, quantity: 11 });
      expect(res.statusCode, res.body).toBe(201);
      const order: Order = res.json();
      // 143.00 * 8.25% = 11.7975 -> 11.80
      expect(order).toMatchObject({ netCents: 14_300, taxCents: 1180, grossCents: 15_480, taxRateBp: 825 });
      const intent = await intentFor(shop, alice, order.id);
      expect(intent.amount).toBe(15_480);
      const transactionId = await confirmWithCard(shop, alice, order.id);
      const paid = await post(shop, alice, `/api/orders/${order.id}/pay`, { transactionId });
      expect(paid.statusCode, paid.body).toBe(200);
      expect(paid.json().status).toBe("paid");
    } finally {
      await setTax(0, false);
    }
  });

  it("takes tax out of prices that include it", async () => {
    await setTax(2000, true);
    try {
      const productId = await tieredProduct({ price: 13, priceTiers: [] });
      const res = await book(alice, { productId, quantity: 10 });
      // 130.00 gross at 20% included: net 108.33, tax 21.67.
      expect(res.json()).toMatchObject({
        grossCents: 13_000,
        netCents: 10_833,
        taxCents: 2167,
        pricesIncludeTax: true,
      });
    } finally {
      await setTax(0, false);
    }
  });
});

describe("discount codes", () => {
  it("applies a percentage or an amount, after the tier, and keeps the company on the order", async () => {
    await setTax(0, false);
    const productId = await tieredProduct();
    const percent = await newCode({ kind: "percent", value: 15 });
    const q = await quote(alice, { productId, quantity: 100, discountCode: percent.code.toLowerCase() });
    expect(q.statusCode, q.body).toBe(200);
    expect(q.json()).toMatchObject({
      unitPrice: 19,
      discountCode: percent.code,
      discountCents: 28_500,
      grossCents: 161_500,
    });
    const res = await book(alice, {
      productId,
      quantity: 100,
      discountCode: ` ${percent.code.toLowerCase()} `,
      companyName: "Team Liquid Fans LLC",
      companyTaxId: "US-12-3456789",
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({
      discountCode: percent.code,
      discountCents: 28_500,
      grossCents: 161_500,
      companyName: "Team Liquid Fans LLC",
      companyTaxId: "US-12-3456789",
    });
    const amount = await newCode({ kind: "amount", value: 1250 });
    const fixed = await book(alice, { productId, quantity: 10, discountCode: amount.code });
    expect(fixed.json()).toMatchObject({ totalPrice: 250, discountCents: 1250, grossCents: 23_750 });
  });

  it("never takes a total below what a card payment may take", async () => {
    await setTax(0, false);
    const productId = await tieredProduct({ price: 1, priceTiers: [] });
    const huge = await newCode({ kind: "amount", value: 100_000 });
    const all = await newCode({ kind: "percent", value: 100 });
    for (const code of [huge.code, all.code]) {
      const res = await book(alice, { productId, quantity: 10, discountCode: code });
      expect(res.statusCode, res.body).toBe(201);
      expect(res.json()).toMatchObject({
        grossCents: MIN_CHARGE_CENTS,
        discountCents: 1000 - MIN_CHARGE_CENTS,
      });
    }
  });

  it("refuses a code that does not apply, with its reason at the field, and books nothing", async () => {
    const productId = await tieredProduct({ category: "mice" });
    const before = await stockOf(productId);
    const past = new Date(Date.now() - 60_000);
    const future = new Date(Date.now() + 3_600_000);
    const cases: [string, string][] = [
      ["NO-SUCH-CODE", pricingMessages.code.unknown],
      [(await newCode({ startsAt: future })).code, pricingMessages.code.unknown],
      [
        (await newCode({ endsAt: past, startsAt: new Date(Date.now() - 120_000) })).code,
        pricingMessages.code.ended,
      ],
      [(await newCode({ endedAt: past })).code, pricingMessages.code.ended],
      [(await newCode({ minQuantity: 20 })).code, pricingMessages.code.minQuantity(20)],
      [(await newCode({ categories: ["keyboards"] })).code, pricingMessages.code.notApplicable],
      [(await newCode({ productIds: [randomUUID()] })).code, pricingMessages.code.notApplicable],
      [(await newCode({ maxUses: 0 })).code, pricingMessages.code.usedUp],
    ];
    for (const [code, message] of cases) {
      for (const ask of [quote, book]) {
        const res = await ask(alice, { productId, quantity: 10, discountCode: code });
        expect(res.statusCode, `${code}: ${res.body}`).toBe(422);
        expect(res.json()).toMatchObject({
          code: problemCodes.discountCodeRefused,
          detail: message,
          errors: [{ path: "discountCode", message }],
        });
      }
    }
    expect(await stockOf(productId)).toBe(before);
    // Its category or the product itself makes it apply.
    for (const values of [{ categories: ["mice" as const] }, { productIds: [productId] }]) {
      const res = await book(alice, { productId, quantity: 10, discountCode: (await newCode(values)).code });
      expect(res.statusCode, res.body).toBe(201);
    }
  });

  it("holds a customer to the code's uses per customer", async () => {
    const [carol] = await customers(1);
    if (!carol) throw new Error("no customer");
    const productId = await tieredProduct();
    const code = await newCode({ maxUsesPerCustomer: 2 });
    for (let i = 0; i < 2; i++)
      expect((await book(carol, { productId, quantity: 10, discountCode: code.code })).statusCode).toBe(201);
    const third = await book(carol, { productId, quantity: 10, discountCode: code.code });
    expect(third.statusCode).toBe(422);
    expect(third.json().detail).toBe(pricingMessages.code.customerLimit);
    // Another customer still may.
    expect((await book(alice, { productId, quantity: 10, discountCode: code.code })).statusCode).toBe(201);
  });

  it("with 10 uses left, 50 concurrent bookings make exactly 10 discounted orders; removal and expiry free a use", async () => {
    const buyers = await customers(50);
    const productId = await tieredProduct();
    const code = await newCode({ maxUses: 12, uses: 2 });
    const answers = await Promise.all(
      buyers.map((b) => book(b, { productId, quantity: 10, discountCode: code.code })),
    );
    const booked = answers.filter((a) => a.statusCode === 201);
    expect(booked).toHaveLength(10);
    for (const refused of answers.filter((a) => a.statusCode !== 201)) {
      expect(refused.statusCode, refused.body).toBe(422);
      expect(refused.json().detail).toBe(pricingMessages.code.usedUp);
    }
    const count = async () =>
      (
        await ctx.database.db.execute<{ orders: number; uses: number }>(sql`
          select (select count(*)::int from "order" where discount_code = ${code.code} and status <> 'expired') as orders,
                 (select uses from discount_code where id = ${code.id}) as uses`)
      ).rows[0];
    expect(await count()).toEqual({ orders: 10, uses: 12 });
    expect(await stockOf(productId)).toBe(100_000 - 100);

    // Removing one frees its use: the next booking with the code gets it.
    const first = booked[0]?.json<Order>();
    if (!first) throw new Error("no order");
    const owner = buyers[answers.findIndex((a) => a.statusCode === 201)];
    if (!owner) throw new Error("no owner");
    const removed = await ctx.app.inject({
      method: "DELETE",
      url: `/api/orders/${first.id}`,
      headers: { cookie: owner.cookie, origin: "http://localhost:3000" },
    });
    expect(removed.statusCode, removed.body).toBe(204);
    expect(await count()).toEqual({ orders: 9, uses: 11 });
    const [dave, erin] = await customers(2);
    if (!dave || !erin) throw new Error("no customers");
    expect((await book(dave, { productId, quantity: 10, discountCode: code.code })).statusCode).toBe(201);
    expect((await book(erin, { productId, quantity: 10, discountCode: code.code })).statusCode).toBe(422);

    // An order whose hold runs out gives its use back when it expires.
    const second = booked[1]?.json<Order>();
    if (!second) throw new Error("no order");
    await ctx.database.db
      .update(orders)
      .set({ status: "expired", expiredAt: new Date() })
      .where(eq(orders.id, second.id));
    expect(await count()).toEqual({ orders: 9, uses: 11 });
    expect((await book(erin, { productId, quantity: 10, discountCode: code.code })).statusCode).toBe(201);
  });
});

describe("the amounts' rule", () => {
  const tax = fc.record({ rateBp: fc.integer({ min: 0, max: 10_000 }), pricesIncludeTax: fc.boolean() });
  const discount = fc.option(
    fc.oneof(
      fc.record({ kind: fc.constant("percent" as const), value: fc.integer({ min: 1, max: 100 }) }),
      fc.record({ kind: fc.constant("amount" as const), value: fc.integer({ min: 1, max: 50_000_000 }) }),
    ),
  );
  const tiers = fc
    .uniqueArray(fc.integer({ min: 10, max: 5000 }), { maxLength: 4 })
    .chain((mins) =>
      fc.tuple(
        fc.constant(mins.sort((a, b) => a - b)),
        fc.array(fc.integer({ min: 1, max: 200 }), { minLength: mins.length, maxLength: mins.length }),
      ),
    )
    .map(([mins, prices]) => {
      const down = [...prices].sort((a, b) => b - a);
      return mins.map((min, i) => ({ min, price: down[i] ?? 1 }));
    });
  /** A booking to price: a unit price and a quantity up to `most`'s, volume tiers, a code, a tax rule. */
  const booking = (most: { price: number; units: number }) =>
    fc.record({
      price: fc.integer({ min: 1, max: most.price }),
      priceTiers: tiers,
      units: fc.integer({ min: 10, max: most.units }),
      off: discount,
      rule: tax,
    });

  it("is the same in the booking's SQL as on the booking form, and net + tax = gross to the cent", async () => {
    await fc.assert(
      fc.asyncProperty(
        booking({ price: 100_000, units: 10_000 }),
        async ({ price, priceTiers, units, off, rule }) => {
          const unit = tierPrice(price, priceTiers, units);
          fc.pre(unit * units <= MAX_ORDER_TOTAL);
          const expected = orderAmounts(unit * units * 100, off, rule, MIN_CHARGE_CENTS);
          const result = await ctx.database.db.execute<{ unit: number } & Record<string, number>>(sql`
            select tier_price(${price}::int, ${JSON.stringify(priceTiers)}::jsonb, ${units}::int) as unit,
                   a.discount_cents as "discountCents", a.net_cents as "netCents", a.tax_cents as "taxCents",
                   a.gross_cents as "grossCents"
            from order_amounts(${unit}::bigint * ${units} * 100, ${off?.kind ?? null}::discount_kind,
              ${off?.value ?? null}::int, ${rule.rateBp}::int, ${rule.pricesIncludeTax}, ${MIN_CHARGE_CENTS}::int) a`);
          const row = result.rows[0];
          expect(row?.unit).toBe(unit);
          expect({ ...row, unit: undefined }).toEqual({ ...expected, unit: undefined });
          expect(expected.netCents + expected.taxCents).toBe(expected.grossCents);
          expect(expected.grossCents).toBeGreaterThanOrEqual(Math.min(MIN_CHARGE_CENTS, unit * units * 100));
          expect(expected.discountCents).toBeGreaterThanOrEqual(0);
          expect(expected.taxCents).toBeGreaterThanOrEqual(0);
        },
      ),
      { numRuns: 300 },
    );
  });

  it("books what it quotes and charges the card the gross, over prices, quantities, tiers, codes and rates", async () => {
    await fc.assert(
      fc.asyncProperty(
        booking({ price: 2000, units: 300 }),
        async ({ price, priceTiers, units, off, rule }) => {
          const [buyer] = await customers(1);
          if (!buyer) throw new Error("no customer");
          const fitting = priceTiers.filter((t) => t.price < price);
          const productId = await tieredProduct({ price, priceTiers: fitting });
          const code = off ? (await newCode({ kind: off.kind, value: off.value })).code : undefined;
          await setTax(rule.rateBp, rule.pricesIncludeTax);
          const body = { productId, quantity: units, discountCode: code };
          const unit = tierPrice(price, fitting, units);
          const expected = orderAmounts(unit * units * 100, off, rule, MIN_CHARGE_CENTS);
          if (expected.grossCents > MAX_ORDER_TOTAL * 100) {
            // Tax added on top can carry the gross past what one card payment takes: refused, nothing booked.
            const refused = await book(buyer, body);
            expect(refused.statusCode, refused.body).toBe(400);
            expect(await ctx.database.db.$count(orders, eq(orders.userId, buyer.id))).toBe(0);
            expect(await stockOf(productId)).toBe(100_000);
            return;
          }
          const quoted = await quote(buyer, body);
          const res = await book(buyer, body);
          expect(res.statusCode, res.body).toBe(201);
          const order: Order = res.json();
          expect(order.unitPrice).toBe(unit);
          expect(order).toMatchObject(expected);
          expect(quoted.json()).toMatchObject({ grossCents: order.grossCents, netCents: order.netCents });
          const intent = await intentFor(shop, buyer, order.id);
          expect(intent.amount).toBe(order.grossCents);
        },
      ),
      // The first example is CI's counterexample: 8,428 basis points added carry the gross past a payment.
      {
        numRuns: 25,
        examples: [
          [
            {
              price: 1821,
              priceTiers: [],
              units: 298,
              off: null,
              rule: { rateBp: 8428, pricesIncludeTax: false },
            },
          ],
        ],
      },
    );
    await setTax(0, false);
  });
});
