// The admin's Manage Orders page in a real browser (Debian's Chromium, as the browser tests use)
// on the shop as bench:scale leaves it at its largest size: each view is checked (the count says
// "more than", one page of rows in the document, a search and the next page answer) and
// screenshotted into bench/results/, so a person can see what the admin sees at a million orders.
import path from "node:path";
import { chromium, type Page } from "@playwright/test";
import { adminMessages } from "../src/shared/messages/admin.js";
import { orderMessages } from "../src/shared/messages/orders.js";
import { EXACT_COUNT_LIMIT, LIST_PAGE_SIZE } from "../src/shared/paging.js";

const o = adminMessages.orders;
const list = orderMessages.list;

export interface ScreenCheck {
  view: string;
  /** From navigation (or the action) until the rows and the count were shown. */
  shownMs: number;
  rows: number;
  count: string;
  screenshot: string;
}

async function rowsAndCount(page: Page, kind: "row" | "article") {
  const region = page.getByRole("region", { name: o.caption });
  const items =
    kind === "row"
      ? region.getByRole("row").filter({ has: page.getByRole("cell") })
      : region.getByRole("article");
  await items.first().waitFor();
  const count = page.getByRole("status").filter({ hasText: /orders?$/ });
  await count.waitFor();
  return { rows: await items.count(), count: (await count.textContent()) ?? "" };
}

/** The text of each order's row (the header row left out). */
const bodyRows = (page: Page) =>
  page
    .getByRole("region", { name: o.caption })
    .getByRole("row")
    .filter({ has: page.getByRole("cell") })
    .allTextContents();

/** Polls `condition` every 50 ms until it holds; throws after 30 s, a safety net for a hang. */
async function until(condition: () => Promise<boolean>, what: string) {
  const deadline = Date.now() + 30_000;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`Manage Orders at scale: no ${what} after 30 s`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

function expectThat(condition: boolean, what: string) {
  if (!condition) throw new Error(`Manage Orders at scale: ${what}`);
}

/**
 * Opens Manage Orders signed in with `cookie` ("name=value; …"), at 1280 px and at 390 px, then
 * searches a common surname and goes to the next page. Throws when a view is not what it must be.
 * `orders`: how many the shop has (the seeded ones, beside a few demo orders).
 */
export async function manageOrdersAtScale(
  base: string,
  cookie: string,
  outDir: string,
  stamp: string,
  orders: number,
) {
  const browser = await chromium.launch({
    executablePath: process.env.CHROME_PATH ?? "/usr/bin/chromium",
    args: ["--no-sandbox", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
  });
  const checks: ScreenCheck[] = [];
  try {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const { hostname } = new URL(base);
    await context.addCookies(
      cookie.split("; ").map((pair) => {
        const at = pair.indexOf("=");
        return { name: pair.slice(0, at), value: pair.slice(at + 1), domain: hostname, path: "/" };
      }),
    );
    const page = await context.newPage();
    const shot = async (view: string, started: number, kind: "row" | "article") => {
      const seen = await rowsAndCount(page, kind);
      const shownMs = Math.round(performance.now() - started);
      const screenshot = path.join(outDir, `${stamp}-manage-orders-${view}.png`);
      // On a phone the cards start below the filters: the screenshot shows the first of them.
      if (kind === "article")
        await page
          .getByRole("region", { name: o.caption })
          .getByRole("article")
          .first()
          .scrollIntoViewIfNeeded();
      await page.screenshot({ path: screenshot });
      checks.push({ view, shownMs, ...seen, screenshot });
      return seen;
    };

    let started = performance.now();
    await page.goto(`${base}/dashboard/manageOrders`);
    const first = await shot("desktop", started, "row");
    expectThat(first.rows === LIST_PAGE_SIZE, `${first.rows} rows on the first page, not ${LIST_PAGE_SIZE}`);
    if (orders > EXACT_COUNT_LIMIT)
      expectThat(first.count === list.count(EXACT_COUNT_LIMIT, false), `the count says "${first.count}"`);

    started = performance.now();
    await page.getByRole("searchbox", { name: o.search }).fill("garcia");
    await until(
      async () => (await bodyRows(page)).every((text) => /garcia/i.test(text)),
      "the rows for garcia",
    );
    const searched = await shot("search", started, "row");
    const before = (await bodyRows(page)).join("\n");
    expectThat(searched.rows === LIST_PAGE_SIZE, `${searched.rows} rows found for garcia`);

    started = performance.now();
    await page.getByRole("link", { name: list.next }).click();
    await until(async () => {
      const rows = await bodyRows(page);
      return rows.join("\n") !== before && rows.every((text) => /garcia/i.test(text));
    }, "the next page of garcia's orders");
    const next = await shot("search-next", started, "row");
    expectThat(
      next.rows === LIST_PAGE_SIZE && page.url().includes("cursor="),
      "the next page is not a page of 25",
    );

    await page.setViewportSize({ width: 390, height: 844 });
    started = performance.now();
    await page.goto(`${base}/dashboard/manageOrders?status=pending`);
    const phone = await shot("phone", started, "article");
    expectThat(phone.rows === LIST_PAGE_SIZE, `${phone.rows} cards at 390 px`);
    const sideways = await page.evaluate<boolean>("document.documentElement.scrollWidth > window.innerWidth");
    expectThat(!sideways, "the page scrolls sideways at 390 px");
  } finally {
    await browser.close();
  }
  return checks;
}
