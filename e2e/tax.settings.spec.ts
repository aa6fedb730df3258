import type { TaxSettings } from "../src/shared/discounts.js";
import { dashboardMessages } from "../src/shared/messages/dashboard.js";
import { discountMessages as t } from "../src/shared/messages/discounts.js";
import { expectAccessible } from "./support/axe.js";
import { origin } from "./support/data.js";
import { expect, test } from "./support/fixtures.js";

// Changes the shop's tax settings: runs after every other journey (playwright.config.ts).

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
