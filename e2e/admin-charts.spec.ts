import type { Locator, Page } from "@playwright/test";
import { adminMessages } from "../src/shared/messages/admin.js";
import { expectAccessible } from "./support/axe.js";
import { uniqueName } from "./support/data.js";
import { expect, test } from "./support/fixtures.js";
import { payWithCard } from "./support/payment.js";

const t = adminMessages.overview.charts;
const statuses = adminMessages.orders.statuses;
const OVERVIEW = "/dashboard/adminmakingPage";

/** The most units one customer may hold unpaid in the e2e shop's default: one order of them. */
const UNITS = 1000;
const PRICE = 3;

/** A number as the tables show it: "$1,234", "1,234" or "-$5". */
const numberOf = (text: string) => Number(text.replace(/[^0-9-]/g, ""));

/** The chart's section, its table unfolded. */
async function figures(page: Page, title: string): Promise<Locator> {
  const section = page.getByRole("region", { name: title });
  await expect(section.getByRole("img")).toHaveAttribute("aria-label", /.+/);
  const details = section.locator("details");
  if (!(await details.getAttribute("open"))) await section.getByText(t.showTable).click();
  await expect(section.getByRole("table")).toBeVisible();
  return section.getByRole("table");
}

/** Today's row of the sales table (the last: oldest first), and a status's count. */
async function read(page: Page) {
  const sales = await figures(page, t.sales.title);
  const today = sales.getByRole("row").last();
  const cells = await today.getByRole("cell").allTextContents();
  const byStatus = await figures(page, t.statuses.title);
  const count = async (status: keyof typeof statuses) =>
    numberOf(
      (await byStatus
        .getByRole("row")
        .filter({ has: page.getByRole("rowheader", { name: statuses[status], exact: true }) })
        .getByRole("cell")
        .textContent()) ?? "",
    );
  return {
    day: await today.locator("time").getAttribute("datetime"),
    revenue: numberOf(cells[0] ?? ""),
    orders: numberOf(cells[1] ?? ""),
    paid: numberOf(cells[2] ?? ""),
    // Paid orders are never removed, only shipped or refunded: their sum only grows, whatever
    // other journeys do beside this one.
    everPaid: (await count("paid")) + (await count("shipped")) + (await count("refunded")),
  };
}

test("the admin sees the charts move after a customer books and pays an order", async ({
  page,
  browser,
  admin: _,
  users,
  orders,
  products,
}) => {
  const product = await products.add({
    name: uniqueName("Chart Fan"),
    image: "/media/products/gale-120-high-static-pressure-fan.svg",
    price: PRICE,
    quantity: 100_000,
    description: "A fan stocked for the overview's charts journey.",
    category: "cooling-fans",
  });
  await page.goto(OVERVIEW);
  const before = await read(page);
  expect(before.day).toBe(new Date().toISOString().slice(0, 10));
  await expectAccessible(page, "admin overview with charts");

  // The customer, in a browser of their own, books and pays on the payment page.
  const context = await browser.newContext();
  try {
    const shopper = await context.newPage();
    await users.signUp(shopper.request, { tag: "charts" });
    const order = await orders.place(shopper.request, product.id, UNITS);
    await shopper.goto(`/dashboard/payment/${order.id}`);
    await payWithCard(shopper, "4242 4242 4242 4242");
    await expect(shopper.getByText(/^Yor transaction id : pi_/)).toBeVisible();
  } finally {
    await context.close();
  }

  await page.reload();
  const after = await read(page);
  // Other journeys may book and pay beside this one: the figures moved by this order at least.
  expect(after.revenue - before.revenue).toBeGreaterThanOrEqual(UNITS * PRICE);
  expect(after.orders).toBeGreaterThanOrEqual(before.orders + 1);
  expect(after.paid).toBeGreaterThanOrEqual(before.paid + 1);
  expect(after.everPaid).toBeGreaterThanOrEqual(before.everPaid + 1);
  // The journey's product leads the top list: no other journey sells a thousand units of one.
  const top = await figures(page, t.top.title);
  await expect(top.getByRole("row").nth(1)).toContainText(product.name);
  await expect(top.getByRole("row").nth(1)).toContainText(UNITS.toLocaleString("en-US"));
  await expect(page.getByRole("region", { name: t.top.title }).getByRole("img")).toHaveAttribute(
    "aria-label",
    new RegExp(`${product.name}: ${UNITS.toLocaleString("en-US")}`),
  );
  await expectAccessible(page, "admin overview with charts, tables open");
  // For a person to look at (test-results/): the charts as the admin sees them.
  await page.screenshot({ path: test.info().outputPath("admin-overview.png"), fullPage: true });
});

test("the charts fit a 390 px phone without sideways scrolling", async ({ page, admin: _ }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(OVERVIEW);
  await figures(page, t.sales.title);
  await figures(page, t.statuses.title);
  const top = page.getByRole("region", { name: t.top.title });
  await expect(top.getByRole("img").or(top.getByText(t.top.none))).toBeVisible();
  if (await top.getByRole("img").isVisible()) await figures(page, t.top.title);
  const overflow = await page.evaluate(
    "document.documentElement.scrollWidth - document.documentElement.clientWidth",
  );
  expect(overflow).toBe(0);
  await expectAccessible(page, "admin overview at 390 px");
});
