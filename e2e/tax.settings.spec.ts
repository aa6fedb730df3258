import type { TaxSettings } from "../src/shared/discounts.js";
import { dashboardMessages } from "../src/shared/messages/dashboard.js";
import { discountMessages as t } from "../src/shared/messages/discounts.js";
import { orderMessages } from "../src/shared/messages/orders.js";
import { paymentMessages } from "../src/shared/messages/payments.js";
import { pricingMessages } from "../src/shared/messages/pricing.js";
import type { Order, OrderPage } from "../src/shared/orders.js";
import { expectAccessible } from "./support/axe.js";
import { origin, uniqueName, uniqueSuffix } from "./support/data.js";
import { expect, test } from "./support/fixtures.js";
import { payWithCard } from "./support/payment.js";

// Both journeys change the shop's tax settings: they run after every other journey, one after
// the other in this one file (playwright.config.ts).

test("an admin sets the tax rate, whether prices include it and the shop's tax ID", async ({
  page,
  adminApi,
  admin: _,
}) => {
  const before: TaxSettings = await (await adminApi.get("/api/admin/settings/tax")).json();
  try {
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.goto("/dashboard");
    await page
      .getByRole("navigation", { name: dashboardMessages.menu })
      .getByRole("link", { name: t.tax.heading })
      .click();
    await expect(page.getByRole("heading", { level: 1, name: t.tax.heading })).toBeVisible();
    const form = page.getByRole("region", { name: t.tax.title });
    await expectAccessible(page, "tax settings, 1440 px");

    // Three decimals are refused under the field.
    await form.getByLabel(t.tax.rate).fill("8.255");
    await form.getByRole("button", { name: t.tax.save }).click();
    await expect(form.getByText(t.tax.rateInvalid)).toBeVisible();

    // Prices that include the tax: what every other journey's customers pay stays the same.
    await form.getByLabel(t.tax.rate).fill("8.25");
    await form.getByLabel(t.tax.pricesIncludeTax).check();
    await form.getByLabel(t.tax.taxId).fill("US-12-3456789");
    await form.getByRole("button", { name: t.tax.save }).click();
    await expect(page.getByText(t.tax.saved)).toBeVisible();

    await page.reload();
    await expect(form.getByLabel(t.tax.rate)).toHaveValue("8.25");
    await expect(form.getByLabel(t.tax.pricesIncludeTax)).toBeChecked();
    await expect(form.getByLabel(t.tax.taxId)).toHaveValue("US-12-3456789");
    const saved: TaxSettings = await (await adminApi.get("/api/admin/settings/tax")).json();
    expect(saved).toMatchObject({ taxRateBp: 825, pricesIncludeTax: true, taxId: "US-12-3456789" });

    await page.setViewportSize({ width: 390, height: 844 });
    await expectAccessible(page, "tax settings, 390 px");
  } finally {
    // The shop's settings as they were, for the journeys after this one.
    const restored = await adminApi.put("/api/admin/settings/tax", {
      headers: origin,
      data: {
        ratePercent: before.taxRateBp / 100,
        pricesIncludeTax: before.pricesIncludeTax,
        taxId: before.taxId,
      },
    });
    expect(restored.status()).toBe(200);
  }
});

const form = orderMessages.form;
const p = pricingMessages;

test("a company books 100 units at the volume price with a code and tax, sees them live and pays the gross", async ({
  page,
  customer: _,
  products,
  adminApi,
}) => {
  const before: TaxSettings = await (await adminApi.get("/api/admin/settings/tax")).json();
  const setTax = (ratePercent: number, pricesIncludeTax: boolean, taxId: string) =>
    adminApi.put("/api/admin/settings/tax", {
      headers: origin,
      data: { ratePercent, pricesIncludeTax, taxId },
    });
  try {
    const product = await products.add({
      name: uniqueName("Tiered switch keyboard"),
      description: "A keyboard teams buy by the ten.",
      image: "/media/products/gale-120-high-static-pressure-fan.svg",
      price: 30,
      quantity: 1000,
      category: "keyboards",
      priceTiers: [
        { min: 50, price: 27 },
        { min: 100, price: 25 },
      ],
    });
    const code = `TEAM-${uniqueSuffix().slice(-8)}`.toUpperCase();
    const made = await adminApi.post("/api/admin/discount-codes", {
      headers: origin,
      data: { code, kind: "percent", value: 10, productIds: [product.id] },
    });
    expect(made.status(), await made.text()).toBe(201);
    expect((await setTax(8.25, false, "US-99-0000001")).status()).toBe(200);

    // The company is kept in the profile, and the booking form takes it from there.
    const saved = await page.request.post("/api/profile", {
      headers: origin,
      data: {
        address: "7 Circuit Lane",
        city: "Austin",
        phone: "5550142",
        companyName: "Clutch Gaming LLC",
        companyTaxId: "US-12-3456789",
      },
    });
    expect(saved.status(), await saved.text()).toBe(201);

    await page.setViewportSize({ width: 1440, height: 900 });
    await page.goto(`/tool/${product.id}`);
    await expect(page.getByRole("table", { name: p.tiers.title })).toBeVisible();
    await expect(page.getByLabel(p.company.name, { exact: true })).toHaveValue("Clutch Gaming LLC");
    await expect(page.getByLabel(p.company.taxId, { exact: true })).toHaveValue("US-12-3456789");
    await expect(page.getByLabel(form.address, { exact: true })).toHaveValue("7 Circuit Lane, Austin");

    // The unit price follows the quantity's tier as it is typed; the tax is added.
    const quantity = page.getByLabel(form.quantity, { exact: true });
    await quantity.fill("60");
    await expect(page.getByText(`${p.tiers.unitPrice}: $27.`)).toBeVisible();
    await quantity.fill("100");
    await expect(page.getByText(`${p.tiers.unitPrice}: $25.`)).toBeVisible();
    // $2,500 with 8.25% tax: $206.25.
    await expect(page.getByText(form.total("$2,706.25"))).toBeVisible();

    // A code that does not exist is refused at its field; the right one shows its discount.
    const codeField = page.getByLabel(p.code.label, { exact: true });
    await codeField.fill("NOPE-123");
    await page.getByRole("button", { name: p.code.apply }).click();
    await expect(page.getByText(p.code.unknown)).toBeVisible();
    await codeField.fill(code.toLowerCase());
    await page.getByRole("button", { name: p.code.apply }).click();
    // $2,500 less 10% is $2,250; 8.25% tax on it is $185.625, rounded half up to $185.63.
    await expect(page.getByText(p.amounts.discountCode(code))).toBeVisible();
    await expect(page.getByText("-$250.00")).toBeVisible();
    await expect(page.getByText(p.amounts.tax("8.25%"))).toBeVisible();
    await expect(page.getByText(form.total("$2,435.63"))).toBeVisible();
    await expectAccessible(page, "booking form with a code and tax, 1440 px");
    await page.setViewportSize({ width: 390, height: 844 });
    await expect(page.getByText(form.total("$2,435.63"))).toBeVisible();
    await expectAccessible(page, "booking form with a code and tax, 390 px");

    await page.getByRole("button", { name: form.book }).click();
    await expect(page.getByText(orderMessages.booked)).toBeVisible();
    await expect(page).toHaveURL("/");

    const mine: OrderPage = await (await page.request.get("/api/orders/mine")).json();
    const order = mine.items.find((o: Order) => o.productId === product.id);
    expect(order).toMatchObject({
      unitPrice: 25,
      totalPrice: 2500,
      discountCode: code,
      discountCents: 25_000,
      netCents: 225_000,
      taxCents: 18_563,
      grossCents: 243_563,
      companyName: "Clutch Gaming LLC",
      companyTaxId: "US-12-3456789",
    });
    if (!order) throw new Error("no order");

    // The payment page charges the gross and names the company.
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.goto(`/dashboard/payment/${order.id}`);
    await expect(page.getByText("Clutch Gaming LLC")).toBeVisible();
    await expect(page.getByText("$2,435.63").first()).toBeVisible();
    await payWithCard(page, "4242 4242 4242 4242");
    await expect(page.getByText(paymentMessages.success)).toBeVisible();
  } finally {
    const restored = await setTax(before.taxRateBp / 100, before.pricesIncludeTax, before.taxId);
    expect(restored.status()).toBe(200);
  }
});
