import { stockMessages } from "../src/shared/messages/stock.js";
import { expectAccessible } from "./support/axe.js";
import { uniqueName } from "./support/data.js";
import { expect, test } from "./support/fixtures.js";

const t = stockMessages.panel;

test("an admin adjusts a product's stock with a note, sets its threshold and reads its history", async ({
  page,
  products,
  admin: _,
}) => {
  const product = await products.add({
    name: uniqueName("Ledger fan"),
    description: "A fan whose every unit is accounted for.",
    image: "/media/products/gale-120-high-static-pressure-fan.svg",
    price: 19,
    quantity: 60,
    category: "cooling-fans",
  });
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto(`/dashboard/stock/${product.id}`);
  await expect(page.getByText(t.inStock(60))).toBeVisible();
  const history = page.getByRole("table", { name: t.historyCaption });
  await expect(history.getByRole("row")).toHaveCount(2);
  await expectAccessible(page, "stock page, 1440 px");

  // A note is required.
  const adjust = page.getByRole("region", { name: t.adjust });
  await adjust.getByLabel(t.mode).selectOption("remove");
  await adjust.getByLabel(t.units).fill("15");
  await adjust.getByRole("button", { name: t.save }).click();
  await expect(adjust.getByText(stockMessages.noteRequired)).toBeVisible();
  await adjust.getByLabel(t.note).fill("Three boxes damaged in transit");
  await adjust.getByRole("button", { name: t.save }).click();
  await expect(page.getByText(t.saved)).toBeVisible();
  await expect(page.getByText(t.inStock(45))).toBeVisible();
  const newest = history.getByRole("row").nth(1);
  await expect(newest).toContainText(stockMessages.reasons.adjustment);
  await expect(newest).toContainText("Three boxes damaged in transit");
  await expect(newest).toContainText("-15");
  // Below the shop's default (50): low.
  await expect(page.getByText(stockMessages.lowBadge(50))).toBeVisible();

  const threshold = page.getByRole("region", { name: t.threshold });
  await threshold.getByLabel(t.threshold).fill("40");
  await threshold.getByRole("button", { name: t.saveThreshold }).click();
  await expect(page.getByText(t.thresholdSaved)).toBeVisible();
  await expect(page.getByText(stockMessages.lowBadge(50))).toHaveCount(0);

  const download = page.waitForEvent("download");
  await page.getByRole("link", { name: new RegExp(`^${t.download}`) }).click();
  expect((await download).suggestedFilename()).toMatch(/^gearhouse-stock-.*\.csv$/);

  await page.setViewportSize({ width: 390, height: 844 });
  await expect(history).toBeVisible();
  await expectAccessible(page, "stock page, 390 px");
});
