import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { orderNumber } from "../../../shared/format.js";
import { adminMessages } from "../../../shared/messages/admin.js";
import { pricingMessages } from "../../../shared/messages/pricing.js";
import type { OrderPage } from "../../../shared/orders.js";
import { EXACT_COUNT_LIMIT, ORDER_SEARCH_COUNT_LIMIT } from "../../../shared/paging.js";
import { orders } from "../../db/schema/index.js";
import { setUpTestApp } from "../../test/app.js";
import { insertOrder } from "../../test/orders.js";
import type { TestUser } from "../../test/users.js";
import { CSV_HEADER } from "./csv.js";

/** GET /api/orders/export.csv: what a spreadsheet gets, and that it streams. */

/**
 * Reads RFC 4180 CSV (CRLF line ends, quoted cells with doubled quotes) into rows of cells, split
 * at `separator`: a comma, or what a spreadsheet in another locale splits at (`;`, a tab).
 */
function parseCsv(text: string, separator = ","): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = "";
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else cell += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === separator) {
      row.push(cell);
      cell = "";
    } else if (ch === "\r" && text[i + 1] === "\n") {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = "";
      i++;
    } else cell += ch;
  }
  expect(cell, "the text ends with a line end").toBe("");
  return rows;
}

const seed = (values: Partial<typeof orders.$inferInsert> & { createdAt: Date }) =>
  insertOrder(ctx.database.db, { name: "Erin Export", email: "erin.export@example.com", ...values });

function exportCsv(query = "", user: TestUser | null = admin) {
  return ctx.app.inject({
    url: `/api/orders/export.csv${query}`,
    headers: user ? { cookie: user.cookie } : {},
  });
}

const ctx = setUpTestApp({}, { rateLimit: { max: 10_000, windowSeconds: 60 } });
const admin = ctx.signedUpAdmin({ email: "export.admin@example.com" });
const customer = ctx.signedUpUser();

describe("the CSV file", () => {
  it("is an attachment with a byte order mark, a header row and CRLF line ends", async () => {
    const id = await seed({ createdAt: new Date("2024-05-06T07:08:09.123Z") });
    const res = await exportCsv(`?search=${id}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toBe("text/csv; charset=utf-8");
    expect(res.headers["content-disposition"]).toMatch(
      /^attachment; filename="gearhouse-orders-[\d-]+\.csv"$/,
    );
    expect(res.headers["cache-control"]).toBe("no-store");
    expect(res.body.startsWith("\uFEFF")).toBe(true);
    const header = CSV_HEADER.map((h) => `"${h}"`).join(",");
    expect(res.body).toBe(
      `\uFEFF${header}\r\n"${id}","2024-05-06T07:08:09.123Z","pending","Gale 120 Fan","","10","12","120","Erin Export","erin.export@example.com","5550123","1 Loop Road, Austin","","","","","","","","","0.00","120.00","0.00","0.00","120.00","","","${orderNumber(id)}"\r\n`,
    );
  });

  it("has the paid, shipped, refunded and expired moments, the carrier and the tracking number", async () => {
    const at = (s: string) => new Date(`2024-06-0${s}Z`);
    const shipped = await seed({
      createdAt: at("1T10:00:00.000"),
      status: "shipped",
      transactionId: "pi_csv_shipped",
      paidAt: at("1T10:05:00.250"),
      shippedAt: at("2T08:00:00.000"),
      carrier: "=UPS",
      trackingNumber: "1Z 999",
    });
    const refunded = await seed({
      createdAt: at("3T10:00:00.000"),
      status: "refunded",
      transactionId: "pi_csv_refunded",
      paidAt: at("3T10:01:00.000"),
      refundedAt: at("4T09:30:00.000"),
    });
    const expired = await seed({
      createdAt: at("5T10:00:00.000"),
      status: "expired",
      expiredAt: at("6T10:00:00.000"),
    });
    const res = await exportCsv("?from=2024-06-01&to=2024-06-07");
    const [header, ...rows] = parseCsv(res.body.slice(1));
    const tail = (name: string) => (header ?? []).indexOf(name);
    const c = adminMessages.orders.csv;
    const columns = [c.paidAt, c.shippedAt, c.refundedAt, c.expiredAt, c.carrier, c.trackingNumber].map(tail);
    expect(columns.every((i) => i > 0)).toBe(true);
    const byId = new Map(rows.map((r) => [r[0], columns.map((i) => r[i])]));
    expect(byId.get(shipped)).toEqual([
      "2024-06-01T10:05:00.250Z",
      "2024-06-02T08:00:00.000Z",
      "",
      "",
      // Typed by an admin: a formula is neutralised like the customer's texts.
      "'=UPS",
      "1Z 999",
    ]);
    expect(byId.get(refunded)).toEqual([
      "2024-06-03T10:01:00.000Z",
      "",
      "2024-06-04T09:30:00.000Z",
      "",
      "",
      "",
    ]);
    expect(byId.get(expired)).toEqual(["", "", "", "2024-06-06T10:00:00.000Z", "", ""]);
  });

  it("ends each line with the amounts as booked and the buyer's company, net + tax = gross", async () => {
    const at = new Date("2024-07-01T10:00:00.000Z");
    const priced = await seed({
      createdAt: at,
      quantity: 10,
      unitPrice: 37,
      totalPrice: 370,
      // A code may begin with a dash, a company with anything: both are made safe like the other texts.
      discountCode: "-SPRING10",
      discountCents: 3_700,
      netCents: 33_300,
      taxCents: 2_747,
      grossCents: 36_047,
      taxRateBp: 825,
      companyName: "=Ωmega Parts GmbH",
      companyTaxId: "DE 123/456.789",
    });
    const included = await seed({
      createdAt: new Date(at.getTime() - 1000),
      netCents: 10_000,
      taxCents: 2_000,
      grossCents: 12_000,
      taxRateBp: 2_000,
      pricesIncludeTax: true,
    });
    const res = await exportCsv("?from=2024-07-01&to=2024-07-02");
    const [header, ...rows] = parseCsv(res.body.slice(1));
    // The existing columns first, as they were; the new ones after them.
    const p = pricingMessages.csv;
    const added = [
      p.discountCode,
      p.discount,
      p.net,
      p.tax,
      p.taxRate,
      p.gross,
      p.companyName,
      p.companyTaxId,
      // Then the order's own number, as its mails and its invoice name it.
      adminMessages.orders.orderNumber,
    ];
    expect(header?.slice(0, 19)).toEqual(CSV_HEADER.slice(0, 19));
    expect(header?.slice(19)).toEqual(added);
    const byId = new Map(rows.map((r) => [r[0], r.slice(19)]));
    expect(byId.get(priced)).toEqual([
      "'-SPRING10",
      "37.00",
      "333.00",
      "27.47",
      "8.25",
      "360.47",
      "'=Ωmega Parts GmbH",
      "DE 123/456.789",
      orderNumber(priced),
    ]);
    expect(byId.get(included)).toEqual([
      "",
      "0.00",
      "100.00",
      "20.00",
      "20.00",
      "120.00",
      "",
      "",
      orderNumber(included),
    ]);
    // In every line, to the cent: net + tax = gross.
    for (const row of rows) {
      const [net, tax, gross] = [row[21], row[22], row[24]].map((v) => Math.round(Number(v) * 100));
      expect((net ?? 0) + (tax ?? 0), row[0]).toBe(gross);
    }
  });

  it("neutralises formulas and quotes what needs quoting, so every cell reads back as written", async () => {
    const hostile = [
      '=HYPERLINK("http://evil.example","x")',
      "+1 555 0100",
      "-2+3",
      "@SUM(A1:A2)",
      "\tTabbed",
      "\rReturned",
      'Say "hi"',
      "Comma, Inc",
      "Two\nlines",
      "Ünïcödé ✓",
      " =spaced",
    ];
    const at = new Date("2023-01-01T00:00:00.000Z");
    const ids: string[] = [];
    for (const [i, text] of hostile.entries())
      ids.push(
        await seed({
          name: text,
          productName: text,
          address: text,
          phone: text,
          email: `${text}@example.com`,
          status: "paid",
          transactionId: `${text} ${i}`,
          createdAt: new Date(at.getTime() - i * 1000),
        }),
      );
    const res = await exportCsv("?to=2023-01-01T00:00:01Z&from=2022-12-31");
    const [header, ...rows] = parseCsv(res.body.slice(1));
    expect(header).toEqual(CSV_HEADER);
    expect(rows.map((r) => r[0])).toEqual(ids);
    const safe = (text: string) => (/^[=+\-@\t\r]/.test(text) ? `'${text}` : text);
    for (const [i, text] of hostile.entries()) {
      const row = rows[i] ?? [];
      expect(row, text).toHaveLength(CSV_HEADER.length);
      expect([row[3], row[8], row[9], row[10], row[11], row[12]], JSON.stringify(text)).toEqual([
        safe(text),
        safe(text),
        safe(`${text}@example.com`),
        safe(text),
        safe(text),
        safe(`${text} ${i}`),
      ]);
    }
    // No cell a spreadsheet would run: each begins with a ' or with something harmless.
    for (const row of rows) for (const cell of row) expect(cell, cell).not.toMatch(/^[=+\-@\t\r]/);
  });

  it("quotes every cell, so no cell becomes a formula where a spreadsheet splits at `;` or a tab", async () => {
    // Issue 28: Excel with `;` as its list separator evaluated =1+1 of an unquoted `safe;=1+1;@cmd`.
    const hostile = ["safe;=1+1;@cmd", "safe\t=2+2\t@cmd", "a;b", "tab\there"];
    const at = new Date("2022-06-01T00:00:00.000Z");
    for (const [i, text] of hostile.entries())
      await seed({
        name: text,
        address: text,
        productName: text,
        phone: text,
        transactionId: text,
        createdAt: new Date(at.getTime() - i * 1000),
      });
    const res = await exportCsv("?from=2022-05-31&to=2022-06-01T00:00:01Z");
    const body = res.body.slice(1);
    // Read with a comma, every cell reads back as written.
    const rows = parseCsv(body).slice(1);
    expect(rows.map((r) => r[8])).toEqual(hostile);
    expect(rows.map((r) => r[11])).toEqual(hostile);
    // Read with `;` or a tab, the customer's separators stay inside quotes: no cell starts a formula.
    for (const separator of [";", "\t"])
      for (const row of parseCsv(body, separator))
        for (const cell of row) expect(cell, JSON.stringify([separator, cell])).not.toMatch(/^[=+\-@]/);
  });

  it("holds the orders of the filter, as the list shows them", async () => {
    for (let i = 0; i < 12; i++)
      await seed({
        name: i % 2 ? "Fiona Filter" : "Gus Other",
        status: i % 3 ? "paid" : "pending",
        transactionId: i % 3 ? `pi_csv_${randomUUID()}` : null,
        createdAt: new Date(Date.UTC(2022, 5, 1 + i)),
      });
    const query = "?search=fiona&status=paid&from=2022-06-01&to=2022-06-12";
    const list: OrderPage = (
      await ctx.app.inject({ url: `/api/orders${query}&limit=100`, headers: { cookie: admin.cookie } })
    ).json();
    expect(list.items.length).toBeGreaterThan(1);
    const rows = parseCsv((await exportCsv(query)).body.slice(1)).slice(1);
    expect(rows.map((r) => r[0])).toEqual(list.items.map((o) => o.id));
  });

  it("is the header alone when nothing matches", async () => {
    const res = await exportCsv("?search=nothing-matches-this");
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe(`\uFEFF${CSV_HEADER.map((h) => `"${h}"`).join(",")}\r\n`);
  });

  it("is for admins, and a bad filter is a 400 problem with no file", async () => {
    expect((await exportCsv("", customer)).statusCode).toBe(403);
    expect((await exportCsv("", null)).statusCode).toBe(401);
    for (const query of ["?status=lost", "?search=--", "?from=2025-02-02&to=2025-02-01", "?from=soon"]) {
      const res = await exportCsv(query);
      expect(res.statusCode, query).toBe(400);
      expect(res.headers["content-type"]).toMatch(/^application\/problem\+json/);
      expect(res.headers["content-disposition"]).toBeUndefined();
    }
  });
});

describe("a large export", () => {
  const ROWS = 20_000;

  beforeAll(async () => {
    // Set-based, as seed:scale does: one statement for twenty thousand orders.
    await ctx.database.db.execute(sql`
      insert into ${orders} (product_name, img, name, email, address, phone, quantity, unit_price,
                             total_price, net_cents, gross_cents, status, created_at)
      select 'Bulk Fan ' || g, '/media/products/x.svg', 'Bulk Buyer', 'bulk.' || g || '@example.com',
             g || ' Mill Lane', '5550123', 10, 12, 120, 12000, 12000, 'pending', '2021-01-01'::timestamptz - g * interval '1 minute'
      from generate_series(1, ${ROWS}) g`);
  });

  it(`streams ${ROWS.toLocaleString("en-US")} orders as it reads them`, async () => {
    const address = await ctx.app.listen({ port: 0, host: "127.0.0.1" });
    const res = await fetch(`${address}/api/orders/export.csv?to=2021-01-01`, {
      headers: { cookie: admin.cookie },
    });
    expect(res.status).toBe(200);
    // Chunked, with no length: sent as it was made, not as a body held whole and then sent.
    expect(res.headers.get("transfer-encoding")).toBe("chunked");
    expect(res.headers.get("content-length")).toBeNull();
    const reader = res.body?.getReader();
    if (!reader) throw new Error("no body");
    const decoder = new TextDecoder();
    const baseline = process.memoryUsage().heapUsed;
    let peak = baseline;
    let lines = 0;
    let tail = "";
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      // Counted as it arrives; the test keeps no more of the file than the server does.
      const text = tail + decoder.decode(value, { stream: true });
      const parts = text.split("\r\n");
      tail = parts.pop() ?? "";
      lines += parts.length;
      peak = Math.max(peak, process.memoryUsage().heapUsed);
    }
    expect(tail).toBe("");
    expect(lines).toBe(ROWS + 1);
    // Loosely (the file is a few megabytes): this only catches something far worse than holding it.
    expect(peak - baseline).toBeLessThan(50 * 1024 * 1024);
  });

  it(`counts exactly up to ${EXACT_COUNT_LIMIT} matching orders (${ORDER_SEARCH_COUNT_LIMIT} found by a search), and says more than that beyond`, async () => {
    const list = (query: string) =>
      ctx.app.inject({ url: `/api/orders${query}`, headers: { cookie: admin.cookie } }).then((r) => r.json());
    expect((await list("?to=2021-01-01")).total).toEqual({ count: EXACT_COUNT_LIMIT, exact: false });
    // bulk.2, bulk.20 to bulk.29, … bulk.20000: 1,112 orders; bulk.21, bulk.210 to 219, 2100 to 2199: 111;
    // bulk.219 and bulk.2190 to 2199: 11.
    expect((await list("?to=2021-01-01&search=bulk.2")).total).toEqual({
      count: ORDER_SEARCH_COUNT_LIMIT,
      exact: false,
    });
    expect((await list("?to=2021-01-01&search=bulk.21")).total).toEqual({
      count: ORDER_SEARCH_COUNT_LIMIT,
      exact: false,
    });
    expect((await list("?to=2021-01-01&search=bulk.219")).total).toEqual({ count: 11, exact: true });
  });
});
