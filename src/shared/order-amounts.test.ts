import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { pricingMessages } from "./messages/pricing.js";
import { amountLines, companyLines, formatTotal, type OrderAmounts, orderTotal } from "./order-amounts.js";
import { orderAmounts } from "./pricing.js";
import { PLAIN_AMOUNTS } from "./test/amounts.js";

const m = pricingMessages.amounts;

/** "$1,299.50" or "-$12.00" back to cents. */
const cents = (amount: string) => {
  const match = /^(-?)\$([\d,]+)\.(\d\d)$/.exec(amount);
  if (!match) throw new Error(`not an amount: ${amount}`);
  return (match[1] ? -1 : 1) * (Number(match[2]?.replaceAll(",", "")) * 100 + Number(match[3]));
};

describe("an order's amount lines", () => {
  it("are the total alone for an order with neither discount nor tax, and all of them on an invoice", () => {
    expect(amountLines(PLAIN_AMOUNTS)).toEqual([
      { key: "gross", label: m.gross, cents: 37_000, amount: "$370.00" },
    ]);
    expect(amountLines(PLAIN_AMOUNTS, { all: true }).map((l) => [l.label, l.amount])).toEqual([
      [m.net, "$370.00"],
      [m.tax("0%"), "$0.00"],
      [m.gross, "$370.00"],
    ]);
  });

  it("read as booked: subtotal, discount with its code, net, tax at its rate, total", () => {
    const order = {
      ...PLAIN_AMOUNTS,
      discountCode: "SPRING10",
      discountCents: 3_700,
      netCents: 33_300,
      taxCents: 2_747,
    };
    const lines = amountLines({ ...order, grossCents: 36_047, taxRateBp: 825 });
    expect(lines.map((l) => [l.label, l.amount])).toEqual([
      [m.subtotal, "$370.00"],
      [m.discountCode("SPRING10"), "-$37.00"],
      [m.net, "$333.00"],
      [m.tax("8.25%"), "$27.47"],
      [m.gross, "$360.47"],
    ]);
    const included = amountLines({
      ...PLAIN_AMOUNTS,
      netCents: 30_833,
      taxCents: 6_167,
      taxRateBp: 2_000,
      pricesIncludeTax: true,
    });
    expect(included.map((l) => [l.label, l.amount])).toEqual([
      [m.net, "$308.33"],
      [m.taxIncluded("20%"), "$61.67"],
      [m.gross, "$370.00"],
    ]);
  });

  it("always show net + tax = total and subtotal - discount = what the tax was worked on, to the cent", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 100_000 }),
        fc.integer({ min: 10, max: 1_000 }),
        fc.option(
          fc.oneof(
            fc.record({ kind: fc.constant("percent" as const), value: fc.integer({ min: 1, max: 100 }) }),
            fc.record({
              kind: fc.constant("amount" as const),
              value: fc.integer({ min: 1, max: 10_000_000 }),
            }),
          ),
        ),
        fc.integer({ min: 0, max: 10_000 }),
        fc.boolean(),
        fc.boolean(),
        (price, quantity, discount, rateBp, pricesIncludeTax, all) => {
          fc.pre(price * quantity <= 999_999);
          const amounts = orderAmounts(price * quantity * 100, discount, { rateBp, pricesIncludeTax }, 50);
          const order: OrderAmounts = {
            totalPrice: price * quantity,
            discountCode: discount ? "CODE-1" : null,
            ...amounts,
            taxRateBp: rateBp,
            pricesIncludeTax,
          };
          const lines = amountLines(order, { all });
          const shown = Object.fromEntries(lines.map((l) => [l.key, cents(l.amount)]));
          for (const line of lines) expect(cents(line.amount)).toBe(line.cents);
          expect(lines.at(-1)?.key).toBe("gross");
          expect(shown.gross).toBe(order.grossCents);
          // What is shown adds up: a line left out is nothing (no tax, no discount).
          const net = shown.net ?? order.grossCents;
          const tax = shown.tax ?? 0;
          expect(net + tax).toBe(shown.gross);
          if (shown.discount !== undefined) {
            expect((shown.subtotal ?? 0) + shown.discount).toBe(pricesIncludeTax ? shown.gross : net);
            expect(shown.subtotal).toBe(price * quantity * 100);
          }
          expect(cents(formatTotal(order.grossCents).replace(/^(-?\$[\d,]+)$/, "$1.00"))).toBe(
            order.grossCents,
          );
        },
      ),
      { numRuns: 2_000 },
    );
  });
});

describe("an order's total", () => {
  it("is in whole dollars when whole, with its cents otherwise", () => {
    expect(orderTotal({ grossCents: 129_900 })).toBe("$1,299");
    expect(orderTotal({ grossCents: 129_950 })).toBe("$1,299.50");
    expect(orderTotal({ grossCents: 5 })).toBe("$0.05");
  });
});

describe("the buyer's company", () => {
  it("is its name and tax ID when given, nothing when blank", () => {
    expect(companyLines({ companyName: " Ωmega GmbH ", companyTaxId: "DE 123" })).toEqual([
      "Ωmega GmbH",
      pricingMessages.company.taxIdLine("DE 123"),
    ]);
    expect(companyLines({ companyName: "", companyTaxId: null })).toEqual([]);
    expect(companyLines({ companyName: null, companyTaxId: " " })).toEqual([]);
  });
});
