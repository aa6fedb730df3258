// `npm run bench:scale`: every list and page of the shop at three sizes of data:
// 10,000 / 100,000 / 1,000,000 orders, with products and users at a tenth and reviews at a fifth of
// the orders, added by seed:scale's code into the built shop's embedded database between the
// sizes. For each request: p50 and p95 of single uncached requests one after another, the answer's
// bytes, and the growth of the p95 from the smallest size to the largest. Budgets: p95 ≤ 50 ms at
// the largest size, growth ≤ 2×; Lighthouse's LCP ≤ 2.5 s on Manage Orders, All users and Reviews
// at the largest size. Then Manage Orders in Chromium at the largest size, each view checked and
// screenshotted (admin-screens.ts). The stock ledger's history is read at as many movements as
// orders (stock-history.ts), and the CSV import of 100,000 lines is timed with the server's peak
// memory (import-scale.ts). The activity log holds as many entries as orders (activity-log.ts). Prints the tables, writes them as JSON and the screenshots to
// bench/results/, and exits 1 when a budget or a view fails. Timings mean something only on a quiet machine (the load average is printed).
//
// Settings: BENCH_SCALE_SIZES (orders per size, "10000,100000,1000000"), BENCH_SCALE_REQUESTS
// (measured requests per row and size, 100), BENCH_LIGHTHOUSE_RUNS (3; 0 skips Lighthouse).
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { embeddedClientConfig } from "../src/server/db/embedded.js";
import { seedScale } from "../src/server/db/seed/scale.js";
import { encodeCursor } from "../src/server/lib/paging.js";
import { ACTIVITY_ACTIONS } from "../src/shared/activity.js";
import { ACTIVITY_PRODUCT, benchAdmin, middleActivity, middleWeek, seedActivity } from "./activity-log.js";
import { manageOrdersAtScale, type ScreenCheck } from "./admin-screens.js";
import { signInAdmin, signUpCustomers } from "./fixtures.js";
import { IMPORT_LINES, type ImportRun, importAtScale } from "./import-scale.js";
import { LIGHTHOUSE_BUDGETS, lighthouse } from "./lighthouse.js";
import { ROOT, spawnNode, startFlags, stopProcess, waitForOk } from "./processes.js";
import { historyProduct, lowStockProducts, middleMovement, seedStockHistory } from "./stock-history.js";

const APP_PORT = 3220;
const PG_PORT = 54391;
const SIZES = (process.env.BENCH_SCALE_SIZES ?? "10000,100000,1000000").split(",").map(Number);
const REQUESTS = Number(process.env.BENCH_SCALE_REQUESTS ?? 100);
const WARM_UP = 5;
const LIGHTHOUSE_RUNS = Number(process.env.BENCH_LIGHTHOUSE_RUNS ?? 3);
/**
 * A bulk buyer: after each size is seeded, this share of the orders (a sample of them) becomes the
 * orders of one customer, whose My Orders is measured: 2,000 orders at 1,000,000.
 */
const HEAVY_SHARE = 0.002;
const BUDGET = { p95Ms: 50, growth: 2, lcpMs: LIGHTHOUSE_BUDGETS.lcpMs };

const base = `http://127.0.0.1:${APP_PORT}`;

/** Words a shopper types, typos included; each request of a row asks a different one (uncached). */
const SEARCH_WORDS = [
  "keyboard",
  "keybord",
  "mouse",
  "mice",
  "headphone",
  "headset",
  "memory",
  "ddr5",
  "fan",
  "argb",
  "vortex",
  "kestrel",
  "nova",
  "titan",
  "pulse",
  "drift",
  "anvil",
  "quiver",
  "echo",
  "aether",
  "sonata",
  "bolt",
  "fluxline",
  "prism",
  "stealth",
  "cyclone",
  "gale",
  "typhoon",
  "whisper",
  "falcon",
  "raptor",
  "helix",
  "onyx",
  "zephyr",
  "wireless",
  "silent",
  "compact",
  "optical",
  "ergonomic",
  "surround",
];
const PEOPLE_WORDS = [
  "garcia",
  "nguyen",
  "smith",
  "rossi",
  "tanaka",
  "okafor",
  "silva",
  "dubois",
  "kowalski",
];

interface Case {
  name: string;
  /** The n-th request's path (n from 0), different each time where an answer could be cached. */
  url(n: number, cursors: Cursors): string;
  /** Whose session asks: the admin's, the heavy customer's, or none. */
  as?: "admin" | "customer";
}

interface Cursors {
  order: string;
  /** In the heavy customer's own orders. */
  mine: string;
  user: string;
  review: string;
  /** The product with as many stock movements as orders, and a movement in the middle of them. */
  historyProduct: string;
  movement: string;
  /** A cursor in the middle of the activity log, and a week there. */
  activity: string;
  activityWeek: { from: string; to: string };
}

const word = (list: string[], n: number) => `${list[n % list.length]}${n >= list.length ? ` ${n}` : ""}`;

const CASES: Case[] = [
  {
    name: "orders: first page (Manage Orders)",
    as: "admin",
    url: (n) => `/api/orders?limit=${25 + (n % 2)}`,
  },
  { name: "orders: a page in the middle", as: "admin", url: (_n, c) => `/api/orders?cursor=${c.order}` },
  { name: "orders: status paid", as: "admin", url: (n) => `/api/orders?status=paid&limit=${25 + (n % 2)}` },
  {
    name: "orders: search a customer",
    as: "admin",
    url: (n) => `/api/orders?search=${encodeURIComponent(PEOPLE_WORDS[n % PEOPLE_WORDS.length] ?? "")}`,
  },
  {
    name: "orders: search a product",
    as: "admin",
    url: (n) => `/api/orders?search=${encodeURIComponent(SEARCH_WORDS[10 + (n % 24)] ?? "")}`,
  },
  { name: "users: first page (All users)", as: "admin", url: (n) => `/api/users?limit=${25 + (n % 2)}` },
  { name: "users: a page in the middle", as: "admin", url: (_n, c) => `/api/users?cursor=${c.user}` },
  { name: "users: role admin", as: "admin", url: (n) => `/api/users?role=admin&limit=${25 + (n % 2)}` },
  {
    name: "users: search",
    as: "admin",
    url: (n) => `/api/users?search=${encodeURIComponent(PEOPLE_WORDS[n % PEOPLE_WORDS.length] ?? "")}`,
  },
  { name: "reviews: first page (Reviews)", url: (n) => `/api/reviews?limit=${12 + (n % 2)}` },
  { name: "reviews: a page in the middle", url: (_n, c) => `/api/reviews?cursor=${c.review}` },
  {
    name: `My Orders (${HEAVY_SHARE * 100} % of all orders)`,
    as: "customer",
    url: (n) => `/api/orders/mine?limit=${25 + (n % 2)}`,
  },
  {
    name: "My Orders: a page in the middle",
    as: "customer",
    url: (_n, c) => `/api/orders/mine?cursor=${c.mine}`,
  },
  {
    name: "products: search (uncached)",
    url: (n) => `/api/products?search=${encodeURIComponent(word(SEARCH_WORDS, n))}`,
  },
  {
    name: "products: a category page",
    // The same pages at every size (the first four, in sizes from 12 to 38: about 200 mice at the
    // smallest size), each URL once, so none is answered from the catalog's cache.
    url: (n) => `/api/products?category=mice&page=${1 + (n % 4)}&pageSize=${12 + (Math.floor(n / 4) % 37)}`,
  },
  { name: "admin overview", as: "admin", url: () => "/api/admin/overview" },
  // The stock ledger (issue 31): a product whose history has as many movements as the shop has orders.
  {
    name: "stock history: first page",
    as: "admin",
    url: (n, c) => `/api/products/${c.historyProduct}/stock/movements?limit=${25 + (n % 2)}`,
  },
  {
    name: "stock history: a page in the middle",
    as: "admin",
    url: (_n, c) => `/api/products/${c.historyProduct}/stock/movements?cursor=${c.movement}`,
  },
  // The overview's low-stock list, a tenth of the products with thresholds of their own (its cards
  // read the same rows: low_stock_product, lowest stock first).
  { name: "low-stock list (admin overview)", as: "admin", url: () => "/api/admin/overview" },
  // The activity log (issue 32): as many entries as orders, read as the Activity page reads them.
  { name: "activity: first page", as: "admin", url: (n) => `/api/admin/activity?limit=${25 + (n % 2)}` },
  {
    name: "activity: a page in the middle",
    as: "admin",
    url: (_n, c) => `/api/admin/activity?cursor=${c.activity}`,
  },
  {
    name: "activity: one admin's",
    as: "admin",
    url: (n) => `/api/admin/activity?actor=${encodeURIComponent(benchAdmin(n))}`,
  },
  {
    name: "activity: one action",
    as: "admin",
    url: (n) => `/api/admin/activity?action=${ACTIVITY_ACTIONS[n % ACTIVITY_ACTIONS.length]}`,
  },
  {
    name: "activity: one product's",
    as: "admin",
    url: (n) => `/api/admin/activity?targetType=product&targetId=${ACTIVITY_PRODUCT}&limit=${25 + (n % 2)}`,
  },
  {
    name: "activity: a week, one action",
    as: "admin",
    url: (n, c) =>
      `/api/admin/activity?action=${ACTIVITY_ACTIONS[n % ACTIVITY_ACTIONS.length]}&from=${c.activityWeek.from}&to=${c.activityWeek.to}`,
  },
];

interface Measured {
  p50: number;
  p95: number;
  bytes: number;
  status: number;
}

const percentile = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? Number.NaN;
};

async function measure(
  c: Case,
  cookies: Record<"admin" | "customer", string>,
  cursors: Cursors,
): Promise<Measured> {
  const times: number[] = [];
  let bytes = 0;
  let status = 200;
  for (let n = 0; n < WARM_UP + REQUESTS; n++) {
    const started = performance.now();
    const res = await fetch(`${base}${c.url(n, cursors)}`, {
      headers: c.as ? { cookie: cookies[c.as] } : {},
    });
    const body = await res.arrayBuffer();
    const ms = performance.now() - started;
    if (!res.ok) status = res.status;
    if (n >= WARM_UP) {
      times.push(ms);
      bytes = Math.max(bytes, body.byteLength);
    }
  }
  return { p50: percentile(times, 50), p95: percentile(times, 95), bytes, status };
}

/** A cursor at the middle of a list, as the API would hand it out there. */
async function middleCursor(
  client: pg.Client,
  table: string,
  where = "true",
  params: unknown[] = [],
): Promise<string> {
  const { rows } = await client.query<{ at: string; id: string }>(
    `select created_at::text as at, id::text as id from ${table} where ${where} order by created_at, id
     offset (select count(*) / 2 from ${table} where ${where}) limit 1`,
    params,
  );
  const row = rows[0];
  if (!row) throw new Error(`${table} is empty`);
  return encodeCursor({ at: row.at, id: row.id });
}

async function main() {
  const load = () =>
    os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(" ");
  console.log(`[bench:scale] sizes ${SIZES.join(", ")} orders; load average ${load()}`);
  // Beside the checkout, as npm run bench keeps its data: the embedded PostgreSQL's own user must
  // reach it, which a private temporary directory would not let it.
  const dataDir = path.join(ROOT, ".bench-data-scale");
  rmSync(dataDir, { recursive: true, force: true });
  const app = spawnNode(undefined, [...startFlags(), path.join(ROOT, "dist/server/main.js")], {
    stdout: "ignore",
    env: {
      ...process.env,
      NODE_ENV: "development",
      PORT: String(APP_PORT),
      PUBLIC_URL: base,
      DATA_DIR: dataDir,
      EMBEDDED_PG_PORT: String(PG_PORT),
      LOG_LEVEL: "warn",
      AUTH_RATE_LIMIT_PER_MINUTE: "100000",
    },
  });
  // As the shop's role, whose password the shop generates into DATA_DIR at its first start.
  const client = new pg.Client(embeddedClientConfig(path.join(dataDir, "postgres"), PG_PORT));
  const table: Record<string, Measured[]> = {};
  const seeded: { orders: number; seconds: number }[] = [];
  const lcp: { page: string; lcpMs: number; pass: boolean }[] = [];
  let screens: ScreenCheck[] = [];
  let imports: ImportRun[] = [];
  const results = path.join(ROOT, "bench/results");
  const stamp = `scale-${new Date().toISOString().replace(/[:.]/g, "-")}`;
  mkdirSync(results, { recursive: true });
  try {
    await waitForOk(`${base}/readyz`, app, 120_000);
    await client.connect();
    const cookie = await signInAdmin(base);
    const [customerCookie = ""] = await signUpCustomers(base, 1, dataDir);
    const cookies = { admin: cookie, customer: customerCookie };
    const { rows: heavy } = await client.query<{ id: string }>(
      `select id from "user" where email like 'bench.%@example.com' order by created_at desc limit 1`,
    );
    const heavyId = heavy[0]?.id;
    if (!heavyId) throw new Error("the bench's customer was not found");
    let have = 0;
    const ledgerProduct = await historyProduct(client);
    for (const orders of SIZES) {
      const started = performance.now();
      const add = orders - have;
      await seedScale(client, {
        orders: add,
        products: Math.round(add / 10),
        users: Math.round(add / 10),
        reviews: Math.round(add / 5),
      });
      await seedStockHistory(client, ledgerProduct, add);
      await seedActivity(client, add);
      await lowStockProducts(client);
      have = orders;
      seeded.push({ orders, seconds: Math.round((performance.now() - started) / 100) / 10 });
      console.log(
        `[bench:scale] ${orders.toLocaleString("en-US")} orders (seeded in ${seeded.at(-1)?.seconds} s)`,
      );
      // Each order of the sample changes hands: triggers keep every counter right.
      await client.query(
        `update "order" set user_id = $1 where id in (select id from "order" tablesample bernoulli (${HEAVY_SHARE * 100}) where user_id <> $1)`,
        [heavyId],
      );
      const cursors = {
        order: await middleCursor(client, '"order"'),
        mine: await middleCursor(client, '"order"', "user_id = $1", [heavyId]),
        user: await middleCursor(client, '"user"'),
        review: await middleCursor(client, "review"),
        historyProduct: ledgerProduct,
        movement: await middleMovement(client, ledgerProduct),
        activity: await middleActivity(client),
        activityWeek: await middleWeek(client),
      };
      for (const c of CASES) {
        const measured = await measure(c, cookies, cursors);
        table[c.name] = [...(table[c.name] ?? []), measured];
      }
      if (orders === SIZES.at(-1) && LIGHTHOUSE_RUNS > 0) {
        for (const page of ["/dashboard/manageOrders", "/dashboard/users", "/reviews"]) {
          const { figures } = await lighthouse(`${base}${page}`, LIGHTHOUSE_RUNS, { cookie });
          lcp.push({ page, lcpMs: Math.round(figures.lcpMs), pass: figures.lcpMs <= BUDGET.lcpMs });
        }
      }
      // Throws when a view is wrong: the run fails.
      if (orders === SIZES.at(-1)) screens = await manageOrdersAtScale(base, cookie, results, stamp, orders);
      // Last, so its 100,000 products change no list measured above.
      if (orders === SIZES.at(-1) && app.pid) imports = await importAtScale(base, cookie, app.pid);
    }
  } finally {
    await client.end().catch(() => {});
    await stopProcess(app);
    rmSync(dataDir, { recursive: true, force: true });
  }

  const rows = Object.entries(table).map(([name, sizes]) => {
    const first = sizes[0];
    const last = sizes.at(-1);
    const growth = first && last ? last.p95 / Math.max(first.p95, 1) : Number.NaN;
    const pass = Boolean(
      last && last.p95 <= BUDGET.p95Ms && growth <= BUDGET.growth && sizes.every((s) => s.status === 200),
    );
    return { name, sizes, growth: Math.round(growth * 100) / 100, pass };
  });
  const ms = (x: number) => x.toFixed(1).padStart(6);
  console.log(
    `\n${"request".padEnd(38)}${SIZES.map((s) => `${(s / 1000).toLocaleString("en-US")}k orders: p50 / p95 ms, KB`.padStart(34)).join("")}  growth  pass`,
  );
  for (const row of rows) {
    const cells = row.sizes.map((s) =>
      `${ms(s.p50)} / ${ms(s.p95)}, ${(s.bytes / 1024).toFixed(1).padStart(6)}${s.status === 200 ? "" : ` (${s.status})`}`.padStart(
        34,
      ),
    );
    console.log(
      `${row.name.padEnd(38)}${cells.join("")}  ${`${row.growth}×`.padStart(6)}  ${row.pass ? "yes" : "NO"}`,
    );
  }
  for (const l of lcp)
    console.log(`Lighthouse LCP ${l.page}: ${l.lcpMs} ms (budget ${BUDGET.lcpMs}) ${l.pass ? "yes" : "NO"}`);
  console.log(
    `seeding: ${seeded.map((s) => `${s.orders.toLocaleString("en-US")} orders in ${s.seconds} s`).join(", ")}`,
  );
  for (const i of imports)
    console.log(
      `CSV import of ${IMPORT_LINES.toLocaleString("en-US")} lines (${i.run}): ${i.seconds} s, server RSS ${i.rssBeforeMb} MB before, ${i.rssPeakMb} MB at peak; ${JSON.stringify(i.report)}`,
    );
  console.log(`load average after: ${load()}`);

  for (const screen of screens)
    console.log(
      `Manage Orders (${screen.view}): ${screen.rows} rows, "${screen.count}", shown in ${screen.shownMs} ms, ${path.relative(ROOT, screen.screenshot)}`,
    );
  const file = path.join(results, `${stamp}.json`);
  writeFileSync(
    file,
    JSON.stringify(
      { sizes: SIZES, requests: REQUESTS, budget: BUDGET, rows, lcp, screens, seeded, imports },
      null,
      2,
    ),
  );
  console.log(`written to ${path.relative(ROOT, file)}`);
  if (rows.some((r) => !r.pass) || lcp.some((l) => !l.pass)) process.exitCode = 1;
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
