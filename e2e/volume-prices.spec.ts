import type { Page } from "@playwright/test";
import type { Product } from "../src/shared/catalog.js";
import { adminMessages } from "../src/shared/messages/admin.js";
import { pricingMessages } from "../src/shared/messages/pricing.js";
import { expectAccessible } from "./support/axe.js";
import { uniqueName } from "./support/data.js";
import { expect, test } from "./support/fixtures.js";

/**
 * Issue 33, item 1, the catalog's side: an admin gives a product volume prices in its card's Edit
 * form (rows added and removed from the keyboard, a tier not below the price refused beside its
 * field), and the product's page shows them as a table by ranges of units. Each screen is checked
 * with axe at 1440 and 390 px.
 */

const p = adminMessages.products;
const t = p.tiers;
const shown = pricingMessages.tiers;
const WIDE = { width: 1440, height: 900 };
const PHONE = { width: 390, height: 844 };

const cardOf = (page: Page, name: string) =>
  page.getByRole("article").filter({ has: page.getByRole("heading", { name, exact: true }) });

test("an admin sets a product's volume prices in its form, and its page shows them", async ({
  page,
  products,
  admin: _,
}) => {
  const product = await products.add({
    name: uniqueName("Tiered Fan"),
    image: "/media/products/gale-120-high-static-pressure-fan.svg",
    price: 30,
    quantity: 500,
    description: "A fan sold cheaper by the box.",
    category: "cooling-fans",
  });
  await page.setViewportSize(WIDE);
  await page.goto("/dashboard/addProduct");
  const card = cardOf(page, product.name);
  await card.getByRole("button", { name: p.editFor(product.name) }).click();
  const edit = card.getByRole("form", { name: p.editTitle(product.name) });
  const tiers = edit.getByRole("group", { name: t.legend });
  await expect(tiers.getByText(t.none)).toBeVisible();

  // From the keyboard: Add puts focus in the new row's first field.
  const add = tiers.getByRole("button", { name: t.add });
  await add.focus();
  await page.keyboard.press("Enter");
  const first = tiers.getByRole("group", { name: t.tier(1) });
  await expect(first.getByLabel(t.min)).toBeFocused();
  await page.keyboard.type("50");
  await page.keyboard.press("Tab");
  await expect(first.getByLabel(t.price)).toBeFocused();
  await page.keyboard.type("30");
  await add.click();
  const second = tiers.getByRole("group", { name: t.tier(2) });
  await expect(second.getByLabel(t.min)).toBeFocused();
  await second.getByLabel(t.min).fill("40");
  await second.getByLabel(t.price).fill("25");
  await add.click();
  const third = tiers.getByRole("group", { name: t.tier(3) });
  await third.getByLabel(t.min).fill("500");
  await third.getByLabel(t.price).fill("20");

  // Refused where it is wrong: the first tier is not below the price, the second has fewer units.
  await edit.getByRole("button", { name: p.save }).click();
  await expect(first.getByLabel(t.price)).toHaveAccessibleDescription(shown.notBelowList("$30"));
  await expect(second.getByLabel(t.min)).toHaveAccessibleDescription(shown.notAscending);
  await expectAccessible(page, "Add Product, volume prices refused, 1440 px");

  // Fixed, and the third removed (focus goes back to Add): saved as two tiers.
  await first.getByLabel(t.price).fill("27");
  await second.getByLabel(t.min).fill("100");
  await third.getByRole("button", { name: t.removeTier(3) }).click();
  await expect(add).toBeFocused();
  await expect(tiers.getByRole("group", { name: t.tier(3) })).toHaveCount(0);
  await edit.getByRole("button", { name: p.save }).click();
  await expect(page.getByText(p.updated(product.name))).toBeVisible();
  await expect(card).toContainText(t.summary([shown.row(50, "$27"), shown.row(100, "$25")].join(" · ")));
  const saved: Product = await (await page.request.get(`/api/products/${product.id}`)).json();
  expect(saved.priceTiers).toEqual([
    { min: 50, price: 27 },
    { min: 100, price: 25 },
  ]);

  // The form opens again with them, at 390 px too.
  await page.setViewportSize(PHONE);
  await card.getByRole("button", { name: p.editFor(product.name) }).click();
  await expect(tiers.getByRole("group", { name: t.tier(2) }).getByLabel(t.price)).toHaveValue("25");
  await expectAccessible(page, "Add Product, editing volume prices, 390 px");

  // The product's page: the ranges of units and their prices, the list price up to the first tier.
  await page.setViewportSize(WIDE);
  await page.goto(`/tool/${product.id}`);
  const table = page.getByRole("table", { name: shown.title });
  await expect(table.getByRole("row")).toHaveText([
    [shown.units, shown.each].join(""),
    "10–49$30",
    "50–99$27",
    "100+$25",
  ]);
  await expectAccessible(page, "a product's page with volume prices, 1440 px");
  await page.setViewportSize(PHONE);
  await expect(table).toBeVisible();
  await expectAccessible(page, "a product's page with volume prices, 390 px");
});

test("a product without volume prices shows no table", async ({ page, products, admin: _ }) => {
  const product = await products.add({
    name: uniqueName("Untiered Fan"),
    image: "/media/products/gale-120-high-static-pressure-fan.svg",
    price: 30,
    quantity: 500,
    description: "A fan at one price.",
    category: "cooling-fans",
  });
  await page.goto(`/tool/${product.id}`);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(product.name);
  await expect(page.getByRole("table", { name: shown.title })).toHaveCount(0);
});
