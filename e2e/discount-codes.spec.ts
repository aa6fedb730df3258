import { dashboardMessages } from "../src/shared/messages/dashboard.js";
import { discountMessages as t } from "../src/shared/messages/discounts.js";
import { expectAccessible } from "./support/axe.js";
import { uniqueName, uniqueSuffix } from "./support/data.js";
import { expect, test } from "./support/fixtures.js";

const f = t.form;
const d = t.detail;

test("an admin makes a discount code for a product and a category, reads it and ends it", async ({
  page,
  products,
  admin: _,
}) => {
  const fanName = uniqueName("Code fan");
  await products.add({
    name: fanName,
    description: "A fan a discount code applies to.",
    image: "/media/products/gale-120-high-static-pressure-fan.svg",
    price: 19,
    quantity: 60,
    category: "cooling-fans",
  });
  const code = `E2E-${uniqueSuffix().slice(-12)}`;

  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto("/dashboard");
  await page
    .getByRole("navigation", { name: dashboardMessages.menu })
    .getByRole("link", { name: t.heading })
    .click();
  await expect(page.getByRole("heading", { level: 1, name: t.heading })).toBeVisible();
  const form = page.getByRole("region", { name: f.title });
  await expect(page.getByRole("table", { name: t.list.caption })).toBeVisible();
  await expectAccessible(page, "discount codes, 1440 px");

  // Sent empty: the fields say what they need, and nothing is made.
  await form.getByRole("button", { name: f.create }).click();
  await expect(form.getByText(t.codeInvalid)).toBeVisible();
  await expect(form.getByText(t.percentInvalid)).toBeVisible();
  await expect(form.getByLabel(f.code, { exact: true })).toBeFocused();

  // Filled by keyboard where a person would: an amount in dollars and cents, a category, a product.
  await form.getByLabel(f.code, { exact: true }).fill(code.toLowerCase());
  await form.getByLabel(f.kind).selectOption("amount");
  await form.getByLabel(f.amountValue).fill("12.5");
  await form.getByLabel(f.minQuantity).fill("20");
  await form.getByLabel(f.maxUses).fill("10");
  await form.getByLabel(f.maxUsesPerCustomer).fill("20");
  await form.getByRole("checkbox", { name: "Mice" }).check();
  await form.getByLabel(f.findProduct).fill(fanName);
  const add = form.getByRole("button", { name: f.addProduct(fanName) });
  await add.focus();
  await page.keyboard.press("Enter");
  await expect(form.getByRole("button", { name: f.removeProduct(fanName) })).toBeVisible();
  await form.getByRole("button", { name: f.create }).click();
  // A customer's limit above the limit in all is refused before anything is sent.
  await expect(form.getByText(t.perCustomerOverTotal)).toBeVisible();
  await form.getByLabel(f.maxUsesPerCustomer).fill("2");
  await form.getByRole("button", { name: f.create }).click();
  await expect(page.getByText(f.created(code))).toBeVisible();
  await expect(form.getByLabel(f.code, { exact: true })).toHaveValue("");

  const row = page.getByRole("row").filter({ hasText: code });
  await expect(row).toContainText("$12.50");
  await expect(row).toContainText(fanName);
  await expect(row).toContainText("Mice");
  await expect(row).toContainText(t.usesOf(0, 10));
  await expect(row).toContainText(t.states.active);

  // The same code again, in any case: the server's refusal, in the form.
  await form.getByLabel(f.code, { exact: true }).fill(code);
  await form.getByLabel(f.percentValue).fill("10");
  await form.getByRole("button", { name: f.create }).click();
  await expect(form.getByRole("alert")).toContainText(t.taken(code));

  // Its page: what it gives, no uses yet, and End behind a confirm dialog.
  await row.getByRole("link", { name: t.list.open(code) }).click();
  await expect(page.getByRole("heading", { level: 2, name: code })).toBeVisible();
  await expect(page.getByText(d.noUses)).toBeVisible();
  await expect(page.getByText(t.perCustomer(2))).toBeVisible();
  await expectAccessible(page, "discount code, 1440 px");
  await page.getByRole("button", { name: d.end }).click();
  const dialog = page.getByRole("dialog", { name: d.endTitle(code) });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole("button", { name: d.cancel })).toBeFocused();
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  await page.getByRole("button", { name: d.end }).click();
  await dialog.getByRole("button", { name: d.endConfirm }).click();
  await expect(page.getByText(d.ended(code))).toBeVisible();
  await expect(page.getByRole("button", { name: d.end })).toHaveCount(0);
  await expect(page.getByRole("region", { name: d.settings })).toContainText(t.states.ended);

  await page.setViewportSize({ width: 390, height: 844 });
  await expectAccessible(page, "discount code, 390 px");
  await page.getByRole("link", { name: d.back }).click();
  await expect(page.getByRole("row").filter({ hasText: code })).toContainText(t.states.ended);
  await expectAccessible(page, "discount codes, 390 px");
});
