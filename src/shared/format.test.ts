import { describe, expect, it, vi } from "vitest";
import { formatPrice } from "./format.js";

// formatPrice writes dollars by hand rather than through Intl (whose first formatter loads the
// locale's data: a long task on a slow phone); it must write exactly what Intl writes.
const intl = new Intl.NumberFormat("en-US", { style: "currency", currency: "USD", maximumFractionDigits: 0 });

describe("formatPrice", () => {
  // First, before anything else here has called it.
  it("makes no Intl formatter for a price", () => {
    const made = vi.spyOn(Intl, "NumberFormat");
    expect(formatPrice(1_299)).toBe("$1,299");
    expect(made).not.toHaveBeenCalled();
    made.mockRestore();
  });

  it("writes what en-US's whole-dollar currency format writes", () => {
    const values = [
      0,
      -0,
      1,
      9,
      10,
      99,
      100,
      999,
      1_000,
      1_299,
      9_999,
      10_000,
      123_456,
      999_999,
      1_000_000,
      12_345_678,
      999_999_999,
      1_000_000_000,
      2 ** 31,
      Number.MAX_SAFE_INTEGER - 1,
      Number.MAX_SAFE_INTEGER,
      1e21,
      1e300,
      0.4,
      0.5,
      0.6,
      1.5,
      2.5,
      999.5,
      1_299.49,
      -0.4,
      -0.5,
      -1.5,
      -1_299,
      -1_234_567.5,
      Number.NaN,
      Number.POSITIVE_INFINITY,
      Number.NEGATIVE_INFINITY,
    ];
    for (let n = 0; n < 2_000; n++)
      values.push(Math.round(Math.random() * 10 ** (n % 12)) / (n % 3 === 0 ? 2 : 1));
    for (const value of values) expect(formatPrice(value), String(value)).toBe(intl.format(value));
  });
});
