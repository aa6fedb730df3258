import { activityMessages as t } from "../src/shared/messages/activity.js";
import { stockMessages } from "../src/shared/messages/stock.js";
import { expectAccessible } from "./support/axe.js";
import { uniqueName } from "./support/data.js";
import { expect, test } from "./support/fixtures.js";

test("an admin follows a product's changes into the activity log, filters it and downloads it", async ({
  page,
  products,
  admin,
}) => {
  const name = uniqueName("Logged fan");
  const product = await products.add({
    name,
    description: "A fan whose every change is on the record.",
    image: "/media/products/gale-120-high-static-pressure-fan.svg",
    price: 19,
    quantity: 60,
    category: "cooling-fans",
  });
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto(`/dashboard/stock/${product.id}`);
  const adjust = page.getByRole("region", { name: stockMessages.panel.adjust });
  await adjust.getByLabel(stockMessages.panel.mode).selectOption("remove");
  await adjust.getByLabel(stockMessages.panel.units).fill("15");
  await adjust.getByLabel(stockMessages.panel.note).fill("Counted at the stocktake");
  await adjust.getByRole("button", { name: stockMessages.panel.save }).click();
  await expect(page.getByText(stockMessages.panel.inStock(45))).toBeVisible();

  // From the product to its record: the newest first, who did it, what changed, from where.
  await page.getByRole("link", { name: t.ofProduct }).click();
  await expect(page.getByRole("heading", { level: 1, name: t.heading })).toBeVisible();
  const log = page.getByRole("table", { name: t.caption });
  const rows = log.getByRole("row");
  await expect(rows).toHaveCount(3);
  await expect(page.getByText(t.count(2))).toBeVisible();
  await expect(rows.nth(1)).toContainText(t.actions["stock.adjusted"]);
  await expect(rows.nth(1)).toContainText(admin.email);
  await expect(rows.nth(1)).toContainText(t.change("quantity", "60", "45"));
  await expect(rows.nth(1)).toContainText(t.change("note", t.none, "Counted at the stocktake"));
  await expect(rows.nth(2)).toContainText(t.actions["product.created"]);
  await expect(rows.nth(2)).toContainText(`${t.targets.product} ${name}`);
  await expectAccessible(page, "activity page, 1440 px");

  // The filter form narrows it further, keeps it in the URL, and Clear shows everything again.
  const filters = page.getByRole("form", { name: t.filters });
  await expect(filters.getByLabel(t.targetId)).toHaveValue(product.id);
  await filters.getByLabel(t.action).selectOption({ label: t.actions["product.created"] });
  await filters.getByRole("button", { name: t.apply }).click();
  await expect(page).toHaveURL(/action=product\.created/);
  await expect(rows).toHaveCount(2);
  await expect(rows.nth(1)).toContainText(t.actions["product.created"]);
  await filters.getByLabel(t.actor).fill("nobody-acted@example.com");
  await filters.getByLabel(t.actor).press("Enter");
  await expect(page.getByText(t.empty)).toBeVisible();
  await page.getByRole("form", { name: t.filters }).getByRole("button", { name: t.clear }).click();
  await expect(page).toHaveURL(/\/dashboard\/activity$/);
  await expect(page.getByRole("form", { name: t.filters }).getByLabel(t.targetId)).toHaveValue("");

  // A bad filter says why, in the page.
  await page.goto(`/dashboard/activity?targetId=${product.id}`);
  await expect(page.getByRole("alert")).toHaveText(t.targetIdNeedsType);

  // The entry links back to what it names, and the CSV downloads the same filter.
  await page.goto(`/dashboard/activity?targetType=product&targetId=${product.id}`);
  const download = page.waitForEvent("download");
  await page.getByRole("link", { name: t.download }).click();
  expect((await download).suggestedFilename()).toMatch(/^gearhouse-activity-\d{4}-\d{2}-\d{2}\.csv$/);
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(log).toBeVisible();
  await expectAccessible(page, "activity page, 390 px");
  await rows
    .nth(1)
    .getByRole("link", { name: `${t.targets.product} ${name}` })
    .click();
  await expect(page).toHaveURL(new RegExp(`/dashboard/stock/${product.id}$`));
});
