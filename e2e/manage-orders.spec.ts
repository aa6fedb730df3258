import { readFile } from "node:fs/promises";
import type { Page } from "@playwright/test";
import type { Product } from "../src/shared/catalog.js";
import { orderNumber } from "../src/shared/format.js";
import { adminMessages } from "../src/shared/messages/admin.js";
import { orderMessages } from "../src/shared/messages/orders.js";
import { ORDER_SEARCH_MIN_RUN, type Order } from "../src/shared/orders.js";
import { LIST_PAGE_SIZE } from "../src/shared/paging.js";
import { expectAccessible } from "./support/axe.js";
import { type Account, origin, uniqueName } from "./support/data.js";
import { test as base, expect, type Products } from "./support/fixtures.js";

const o = adminMessages.orders;
const list = orderMessages.list;
const ORDERS = 30;

/** A product of the journey's own, stocked for its orders. */
const stockedProduct = (products: Products, tag: string) =>
  products.add({
    name: uniqueName(`Bulk Fan ${tag}`),
    image: "/media/products/gale-120-high-static-pressure-fan.svg",
    price: 12,
    quantity: 10_000,
    description: "A fan stocked for the order list journeys.",
    category: "cooling-fans",
  });

type JourneyOrders = { customer: Account; product: Product; orders: Order[] };

const test = base.extend<{ customerWithOrders: (tag: string) => Promise<JourneyOrders> }>({
  /**
   * The page signed in as the admin, and a customer of the journey's own, signed in on `request`,
   * with 30 orders: three paid, one of them shipped. Other journeys place orders beside it, so each
   * journey searches for its customer. All of it goes in teardown but the paid orders and the product.
   */
  customerWithOrders: async ({ page, request, users, products, orders, admin: _ }, use) => {
    await use(async (tag) => {
      const product = await stockedProduct(products, tag);
      const customer = await users.signUp(request, { tag, name: uniqueName(tag) });
      const placed: Order[] = [];
      for (let i = 0; i < ORDERS; i++) placed.push(await orders.place(request, product.id));
      for (const order of placed.slice(0, 3)) await orders.pay(request, order, customer);
      const shipped = placed[0];
      if (!shipped) throw new Error("no order placed");
      const ship = await page.request.post(`/api/orders/${shipped.id}/ship`, { headers: origin });
      expect(ship.status()).toBe(200);
      return { customer, product, orders: placed };
    });
  },
});

const searchBox = (page: Page) => page.getByRole("searchbox", { name: o.search });
const count = (page: Page) => page.getByRole("status").filter({ hasText: /orders?$/ });
const chip = (page: Page, status: keyof typeof o.statuses) =>
  page.getByRole("button", { name: o.statuses[status], exact: true });
const rows = (page: Page) => page.getByRole("table", { name: o.caption }).getByRole("row");

test("search, status chips, pages and the URL: back and forward restore each list", async ({
  page,
  customerWithOrders,
}) => {
  const { customer, orders: placed } = await customerWithOrders("Chips");
  await page.goto("/dashboard/manageOrders");
  await expect(rows(page).first()).toBeVisible();

  // Too short a search stays in the box and the page says what it needs, with no list under it:
  // the old results do not stay as if they matched it (issue 31).
  await searchBox(page).fill("ab");
  await expect(
    page.getByRole("alert").filter({ hasText: list.searchTooShort(ORDER_SEARCH_MIN_RUN) }),
  ).toBeVisible();
  expect(new URL(page.url()).searchParams.get("search")).toBeNull();
  await expect(rows(page)).toHaveCount(0);
  await expect(count(page)).toHaveCount(0);
  await expectAccessible(page, "Manage Orders, a refused search");

  await searchBox(page).fill(customer.email);
  await expect(page).toHaveURL(new RegExp(`search=${encodeURIComponent(customer.email)}`));
  await expect(
    page.getByRole("alert").filter({ hasText: list.searchTooShort(ORDER_SEARCH_MIN_RUN) }),
  ).toHaveCount(0);
  await expect(count(page)).toHaveText(list.count(ORDERS, true));
  await expect(rows(page)).toHaveCount(LIST_PAGE_SIZE + 1);
  // Each order shows where to ship it and its number, as the customer's mails name it.
  const newest = placed.at(-1);
  if (!newest) throw new Error("no order placed");
  await expect(rows(page).nth(1)).toContainText(`${o.shipTo}: ${newest.address}`);
  await expect(rows(page).nth(1)).toContainText(orderNumber(newest.id));

  // Next page: the rest, numbered on, and the list takes focus; never more than one page in the page.
  const serials = page.getByRole("table", { name: o.caption }).getByRole("rowheader");
  await page.getByRole("link", { name: list.next }).click();
  await expect(page).toHaveURL(/cursor=.+&page=2|page=2.+cursor=/);
  await expect(rows(page)).toHaveCount(ORDERS - LIST_PAGE_SIZE + 1);
  await expect(serials.first()).toHaveText(String(LIST_PAGE_SIZE + 1));
  await expect(page.getByRole("region", { name: o.caption })).toBeFocused();
  await expect(page.getByRole("link", { name: list.next })).toHaveAttribute("aria-disabled", "true");
  await page.getByRole("link", { name: list.previous }).click();
  await expect(page).toHaveURL(/before=/);
  await expect(rows(page)).toHaveCount(LIST_PAGE_SIZE + 1);
  await expect(serials.first()).toHaveText("1");
  await expect(page.getByRole("link", { name: list.previous })).toHaveAttribute("aria-disabled", "true");

  // Chips, by keyboard too.
  await chip(page, "pending").click();
  await expect(chip(page, "pending")).toHaveAttribute("aria-pressed", "true");
  await expect(page).toHaveURL(/status=pending(&|$)/);
  await expect(count(page)).toHaveText(list.count(ORDERS - 3, true));
  await chip(page, "shipped").focus();
  await page.keyboard.press("Space");
  await expect(page).toHaveURL(/status=pending%2Cshipped|status=pending,shipped/);
  await expect(count(page)).toHaveText(list.count(ORDERS - 2, true));
  await expectAccessible(page, "Manage Orders, filtered");

  // The browser's history steps back through the lists, and forward again.
  await page.goBack();
  await expect(count(page)).toHaveText(list.count(ORDERS - 3, true));
  await expect(chip(page, "shipped")).toHaveAttribute("aria-pressed", "false");
  await page.goBack();
  await expect(count(page)).toHaveText(list.count(ORDERS, true));
  await expect(chip(page, "pending")).toHaveAttribute("aria-pressed", "false");
  await page.goForward();
  await expect(count(page)).toHaveText(list.count(ORDERS - 3, true));

  // A link to the list shows the same list to whoever opens it.
  const shared = await page.context().newPage();
  await shared.goto(page.url());
  await expect(searchBox(shared)).toHaveValue(customer.email);
  await expect(chip(shared, "pending")).toHaveAttribute("aria-pressed", "true");
  await expect(count(shared)).toHaveText(list.count(ORDERS - 3, true));
  await shared.close();

  // Nothing matches: the page says so and offers the way back.
  await page.getByLabel(o.to).fill("2000-01-01");
  await expect(page.getByText(o.noneMatch)).toBeVisible();
  await page.getByRole("button", { name: o.clear }).first().click();
  await expect(searchBox(page)).toHaveValue("");
  await expect(page).toHaveURL(/\/dashboard\/manageOrders$/);
});

test("Download saves the current filter as a CSV file", async ({ page, customerWithOrders }) => {
  const { customer, orders } = await customerWithOrders("Export");
  await page.goto(`/dashboard/manageOrders?search=${encodeURIComponent(customer.email)}&status=paid,shipped`);
  await expect(count(page)).toHaveText(list.count(3, true));
  const [download] = await Promise.all([
    page.waitForEvent("download"),
    page.getByRole("link", { name: o.downloadLabel }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/^gearhouse-orders-\d{4}-\d{2}-\d{2}\.csv$/);
  const file = await download.path();
  const text = await readFile(file, "utf8");
  const lines = text.replace(/^\uFEFF/, "").split("\r\n");
  expect(lines.pop()).toBe("");
  expect(lines).toHaveLength(1 + 3);
  // Every cell is quoted (a `;` or tab a customer typed stays inside quotes).
  const ids = lines.slice(1).map((line) => line.split(",")[0]?.replaceAll(`"`, ""));
  expect(new Set(ids)).toEqual(new Set(orders.slice(0, 3).map((order) => order.id)));
});

test("at 390 px each order is a card with its action in view, and nothing scrolls sideways", async ({
  page,
  customerWithOrders,
}) => {
  const { customer, product } = await customerWithOrders("Narrow");
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`/dashboard/manageOrders?search=${encodeURIComponent(customer.email)}`);
  const cards = page.getByRole("region", { name: o.caption }).getByRole("article");
  await expect(cards).toHaveCount(LIST_PAGE_SIZE);
  await expect(page.getByRole("table")).toHaveCount(0);
  const unpaid = cards.filter({ hasText: o.notPaid }).first();
  await unpaid.scrollIntoViewIfNeeded();
  const remove = unpaid.getByRole("button", { name: o.removeFor(product.name, customer.name) });
  await expect(remove).toBeInViewport();
  await expect(unpaid).toContainText(`${o.shipTo}: `);
  await expect(unpaid.getByText(o.orderNumber)).toBeVisible();
  await remove.click();
  await expect(page.getByRole("dialog", { name: orderMessages.confirmDelete })).toBeVisible();
  await page.getByRole("button", { name: adminMessages.cancel }).click();
  expect(await page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")).toBe(true);
  await expectAccessible(page, "Manage Orders at 390 px");
});

test("My Orders pages a customer's orders the same way", async ({ page, products, orders, customer: _ }) => {
  const product = await stockedProduct(products, "Mine");
  for (let i = 0; i < ORDERS; i++) await orders.place(page.request, product.id);

  await page.goto("/dashboard");
  const table = page.getByRole("table", { name: orderMessages.table.caption });
  await expect(page.getByRole("status").filter({ hasText: /orders?$/ })).toHaveText(list.count(ORDERS, true));
  await expect(table.getByRole("row")).toHaveCount(LIST_PAGE_SIZE + 1);
  await page.getByRole("link", { name: list.next }).click();
  await expect(table.getByRole("row")).toHaveCount(ORDERS - LIST_PAGE_SIZE + 1);
  await expect(table.getByRole("rowheader").first()).toHaveText(String(LIST_PAGE_SIZE + 1));
  await page.goBack();
  await expect(table.getByRole("row")).toHaveCount(LIST_PAGE_SIZE + 1);
  await expectAccessible(page, "My Orders, paged");
});
