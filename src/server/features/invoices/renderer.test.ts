import { afterAll, describe, expect, it } from "vitest";
import { PLAIN_AMOUNTS } from "../../../shared/test/amounts.js";
import type { Seller } from "../../config.js";
import { registry } from "../../lib/metrics.js";
import { type InvoiceData, renderInvoice } from "./pdf.js";
import { invoiceRenderer } from "./renderer.js";

/** The invoice renderer alone (renderer.ts): in its worker thread, and what it keeps. */

const seller: Seller = {
  name: "Gearhouse",
  address: "1 Fan Street",
  email: "billing@shop.example",
  taxId: undefined,
};

const invoice = (n: number): InvoiceData => ({
  number: n,
  issuedAt: new Date(Date.UTC(2026, 0, 1, 12, 0, n % 60)),
  orderId: `00000000-0000-4000-8000-${String(n).padStart(12, "0")}`,
  productName: `Gale ${n} Fan`,
  unitPrice: 37,
  quantity: 10,
  ...PLAIN_AMOUNTS,
  sellerTaxId: "",
  buyer: {
    name: `Buyer ${n}`,
    email: `buyer.${n}@example.com`,
    address: "1 Loop Road\nAustin",
    phone: "5550123",
    companyName: "",
    companyTaxId: "",
  },
  transactionId: `pi_${n}`,
});

/** How many invoices the renderer counted from each source so far (gearhouse_invoice_renders_total). */
async function renders(): Promise<Record<string, number>> {
  const metric = registry.getSingleMetric("gearhouse_invoice_renders_total");
  const values = (await metric?.get())?.values ?? [];
  return Object.fromEntries(values.map((v) => [String(v.labels.source), v.value]));
}

async function rendersSince(before: Record<string, number>): Promise<Record<string, number>> {
  const now = await renders();
  return Object.fromEntries(
    Object.entries(now)
      .map(([source, n]) => [source, n - (before[source] ?? 0)] as const)
      .filter(([, n]) => n > 0),
  );
}

const renderer = invoiceRenderer();
afterAll(() => renderer.close());

describe("the invoice renderer", () => {
  it("renders in its thread while the main thread goes on: the main loop turns before 16 renders end", async () => {
    const before = await renders();
    // Counts the turns of the main thread's event loop until the renders are done. Rendered on
    // this thread, pdfkit's 16 renders would all end within the turn that started them: 0 turns.
    let turns = 0;
    let done = false;
    const turn = () => {
      if (done) return;
      turns++;
      setImmediate(turn);
    };
    setImmediate(turn);
    const pdfs = await Promise.all(
      Array.from({ length: 16 }, (_, i) => renderer.render(invoice(100 + i), seller)),
    );
    done = true;
    expect(turns).toBeGreaterThan(0);
    expect(await rendersSince(before)).toEqual({ thread: 16 });
    // The thread's bytes are those this thread would make.
    for (const [i, pdf] of pdfs.entries())
      expect(pdf.equals(await renderInvoice(invoice(100 + i), seller))).toBe(true);
  });

  it("keeps the bytes: the same invoice again is the same file, not rendered again", async () => {
    const first = await renderer.render(invoice(7), seller);
    const before = await renders();
    const again = await renderer.render(invoice(7), seller);
    expect(again.equals(first)).toBe(true);
    expect(await rendersSince(before)).toEqual({ cache: 1 });
  });

  it("renders an invoice asked for 16 times at once only once", async () => {
    const before = await renders();
    const pdfs = await Promise.all(Array.from({ length: 16 }, () => renderer.render(invoice(8), seller)));
    for (const pdf of pdfs) expect(pdf.equals(pdfs[0] as Buffer)).toBe(true);
    expect(await rendersSince(before)).toEqual({ thread: 1, shared: 15 });
  });

  it("renders anew what changed: the buyer, or another seller", async () => {
    const paid = await renderer.render(invoice(9), seller);
    const moved = await renderer.render(
      { ...invoice(9), buyer: { ...invoice(9).buyer, address: "2 Loop Road" } },
      seller,
    );
    const renamed = await renderer.render(invoice(9), { ...seller, name: "Gearhouse Ltd" });
    expect(moved.equals(paid)).toBe(false);
    expect(renamed.equals(paid)).toBe(false);
  });
});
