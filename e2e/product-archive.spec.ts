import type { Page } from "@playwright/test";
import sharp from "sharp";
import type { Product } from "../src/shared/catalog.js";
import { adminMessages } from "../src/shared/messages/admin.js";
import { catalogMessages } from "../src/shared/messages/catalog.js";
import { catalogCsvMessages } from "../src/shared/messages/catalog-csv.js";
import { expectAccessible } from "./support/axe.js";
import { uniqueName } from "./support/data.js";
import { expect, type Products, test } from "./support/fixtures.js";

/**
 * Issue 31, item 1: an admin edits every field of a product from its card (a new image previewed
 * before it is saved), archives it (it leaves the storefront and its page says it is no longer
 * sold), restores it, and deletes one never ordered; one that was ordered is refused, pointing to
 * archiving. Each screen is checked with axe at 1440 and 390 px.
 */

const p = adminMessages.products;
const WIDE = { width: 1440, height: 900 };
const PHONE = { width: 390, height: 844 };

const fan = (products: Products, tag: string) =>
  products.add({
    name: uniqueName(`Archive Fan ${tag}`),
    image: "/media/products/gale-120-high-static-pressure-fan.svg",
    price: 15,
    quantity: 400,
    description: "A fan made by the archive journeys.",
    category: "cooling-fans",
  });

const cardOf = (page: Page, name: string) =>
  page.getByRole("article").filter({ has: page.getByRole("heading", { name, exact: true }) });

const pngImage = () =>
  sharp({ create: { width: 80, height: 80, channels: 3, background: "#a855f7" } })
    .png()
    .toBuffer();

async function openAddProduct(page: Page, archived = false) {
  await page.goto("/dashboard/addProduct");
  if (archived) await page.getByRole("button", { name: p.archivedView, exact: true }).click();
}

test("an admin edits every field of a product from its card, previewing a new image", async ({
  page,
  products,
  admin: _,
}) => {
  const product = await fan(products, "Edit");
  const renamed = uniqueName("Archive Mouse Edited");
  const sku = `E2E-${product.id.slice(0, 8)}`.toUpperCase();
  await page.setViewportSize(WIDE);
  await openAddProduct(page);
  const card = cardOf(page, product.name);
  await card.getByRole("button", { name: p.editFor(product.name) }).click();
  const edit = card.getByRole("form", { name: p.editTitle(product.name) });
  await expect(edit.getByLabel(p.name, { exact: true })).toBeFocused();

  await edit.getByLabel(p.name, { exact: true }).fill(renamed);
  await expect(edit.getByLabel(catalogCsvMessages.sku)).toHaveValue(product.sku);
  await edit.getByLabel(catalogCsvMessages.sku).fill(sku.toLowerCase());
  await edit.getByLabel(p.category).selectOption({ label: "Mice" });
  await edit.getByLabel(p.price).fill("27");
  await edit.getByLabel(p.quantity).fill("60");
  await edit.getByLabel(p.description).fill("Now a mouse, rewritten by the browser tests.");
  await edit
    .getByLabel(p.newImage)
    .setInputFiles({ name: "mouse.png", mimeType: "image/png", buffer: await pngImage() });
  // The preview, before anything is saved: the picked file, shown beside the field.
  await expect(edit.locator('img[src^="blob:"]')).toBeVisible();
  await expectAccessible(page, "Add Product, editing a card, 1440 px");
  await edit.getByRole("button", { name: p.save }).click();

  await expect(page.getByText(p.updated(renamed))).toBeVisible();
  const saved = cardOf(page, renamed);
  await expect(saved).toContainText("$27");
  await expect(saved).toContainText(p.stock("60"));
  await expect(saved).toContainText("Now a mouse");
  await expect(saved.getByRole("img", { name: renamed })).toHaveAttribute(
    "src",
    /^\/api\/images\/[a-f0-9]{64}\./,
  );
  const now: Product = await (await page.request.get(`/api/products/${product.id}`)).json();
  expect(now).toMatchObject({ name: renamed, sku, category: "mice", price: 27, quantity: 60 });

  await page.setViewportSize(PHONE);
  await saved.getByRole("button", { name: p.editFor(renamed) }).click();
  await expect(saved.getByRole("form", { name: p.editTitle(renamed) })).toBeVisible();
  await expectAccessible(page, "Add Product, editing a card, 390 px");
});

test("an archived product leaves the shop, its page says it is no longer sold, and Restore brings it back", async ({
  page,
  products,
  admin: _,
}) => {
  const product = await fan(products, "Retire");
  await page.setViewportSize(WIDE);
  await openAddProduct(page);
  await cardOf(page, product.name)
    .getByRole("button", { name: p.archiveFor(product.name) })
    .click();
  await expect(page.getByText(p.archived(product.name))).toBeVisible();
  await expect(cardOf(page, product.name)).toHaveCount(0);

  // The storefront: not found by its name, and its page says it is no longer sold.
  await page.goto(`/tools?search=${encodeURIComponent(product.name)}`);
  await expect(page.getByText(catalogMessages.noProducts)).toBeVisible();
  await page.goto(`/tool/${product.id}`);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(catalogMessages.archived);
  await expect(page.getByText(catalogMessages.archivedLead)).toBeVisible();
  await expectAccessible(page, "an archived product's page, 1440 px");
  await page.setViewportSize(PHONE);
  await page.reload();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(catalogMessages.archived);
  await expectAccessible(page, "an archived product's page, 390 px");

  // The admin's archived list has it, with the day it was archived, and Restore.
  await openAddProduct(page, true);
  const card = cardOf(page, product.name);
  await expect(card).toBeVisible();
  await expect(page.getByText(p.archivedLead)).toBeVisible();
  await expectAccessible(page, "Add Product, archived products, 390 px");
  await page.setViewportSize(WIDE);
  await expectAccessible(page, "Add Product, archived products, 1440 px");
  await card.getByRole("button", { name: p.restoreFor(product.name) }).click();
  await expect(page.getByText(p.restored(product.name))).toBeVisible();
  await expect(card).toHaveCount(0);

  await page.goto(`/tool/${product.id}`);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(product.name);
});

test("deleting: a product never ordered goes after the confirm dialog; one ordered is refused, pointing to archiving", async ({
  page,
  request,
  products,
  users,
  orders,
  admin: _,
}) => {
  const unsold = await fan(products, "Unsold");
  const sold = await fan(products, "Sold");
  await users.signUp(request, { tag: "Deleter" });
  await orders.place(request, sold.id);
  await page.setViewportSize(WIDE);
  await openAddProduct(page);

  await cardOf(page, unsold.name)
    .getByRole("button", { name: p.deleteFor(unsold.name) })
    .click();
  const dialog = page.getByRole("dialog", { name: p.deleteTitle(unsold.name) });
  await expect(dialog).toHaveAccessibleDescription(p.deleteText);
  await expectAccessible(page, "Add Product, the delete dialog, 1440 px");
  await dialog.getByRole("button", { name: p.delete, exact: true }).click();
  await expect(page.getByText(p.deleted(unsold.name))).toBeVisible();
  await expect(cardOf(page, unsold.name)).toHaveCount(0);
  expect((await page.request.get(`/api/products/${unsold.id}`)).status()).toBe(404);

  await page.setViewportSize(PHONE);
  await cardOf(page, sold.name)
    .getByRole("button", { name: p.deleteFor(sold.name) })
    .click();
  const refused = page.getByRole("dialog", { name: p.deleteTitle(sold.name) });
  await expectAccessible(page, "Add Product, the delete dialog, 390 px");
  await refused.getByRole("button", { name: p.delete, exact: true }).click();
  await expect(page.getByText(p.deleteOrdered)).toBeVisible();
  await expect(cardOf(page, sold.name)).toBeVisible();
});
