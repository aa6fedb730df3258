import { catalogCsvMessages } from "../src/shared/messages/catalog-csv.js";
import { mailMessages } from "../src/shared/messages/mail.js";
import { stockNoticeMessages } from "../src/shared/messages/stock-notices.js";
import { expectAccessible } from "./support/axe.js";
import { origin, uniqueName, uniqueTag } from "./support/data.js";
import { expect, test } from "./support/fixtures.js";
import { waitForMail } from "./support/mail.js";

const m = stockNoticeMessages;
const IMAGE = "/media/products/gale-120-high-static-pressure-fan.svg";

test("a customer asks to be told when a part is back, sees it in the dashboard, gets the mail and unsubscribes", async ({
  page,
  customer,
  products,
  adminApi,
}) => {
  const product = await products.add({
    name: uniqueName("Back fan"),
    description: "A fan that sold out.",
    image: IMAGE,
    price: 19,
    quantity: 3,
    category: "cooling-fans",
  });
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto(`/tool/${product.id}`);
  await expect(page.getByRole("heading", { name: m.offer })).toBeVisible();
  await page.getByRole("button", { name: m.subscribe }).click();
  await expect(page.getByRole("heading", { name: m.subscribed })).toBeVisible();
  await expectAccessible(page, "product page, subscribed, 1440 px");

  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto("/dashboard/stockNotices");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(m.list.title);
  await expect(page.getByRole("link", { name: product.name })).toBeVisible();
  await expectAccessible(page, "back in stock list, 390 px");

  // Restocked: the job queues the mail, the outbox sends it.
  const restocked = await adminApi.patch(`/api/products/${product.id}`, {
    headers: origin,
    data: { quantity: 40 },
  });
  expect(restocked.status()).toBe(200);
  const mail = await waitForMail(customer.email, 60_000, (text) =>
    text.includes(mailMessages.backInStock.subject(product.name)),
  );
  expect(mail).toContain(`/tool/${product.id}`);
  await page.reload();
  await expect(page.getByText(m.list.empty)).toBeVisible();

  const link = /https?:\/\/[^\s"<>]+\/stock-notices\/unsubscribe\?[^\s"<>]+/.exec(mail)?.[0];
  if (!link) throw new Error("no unsubscribe link in the mail");
  await page.goto(
    new URL(link.replaceAll("&amp;", "&")).pathname + new URL(link.replaceAll("&amp;", "&")).search,
  );
  await expectAccessible(page, "unsubscribe page, 390 px");
  await page.getByRole("button", { name: m.unsubscribe.confirm }).click();
  await expect(page.getByText(m.unsubscribe.done)).toBeVisible();
});

test("an admin checks a CSV of products, applies it, and downloads the catalog", async ({
  page,
  admin: _,
}) => {
  const tag = uniqueTag("csv")
    .toUpperCase()
    .replace(/[^A-Z0-9]/g, "");
  const csv = [
    "sku,name,category,price,quantity,description,threshold,image",
    `E2E-${tag}-1,Imported fan ${tag},cooling-fans,21,50,A fan from a file.,,${IMAGE}`,
    `E2E-${tag}-2,Broken,lamps,21,50,Not a category.,,${IMAGE}`,
  ].join("\n");
  const i = catalogCsvMessages.import;
  for (const width of [1440, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await page.goto("/dashboard/importProducts");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(i.title);
    await page
      .getByLabel(i.file)
      .setInputFiles({ name: "products.csv", mimeType: "text/csv", buffer: Buffer.from(csv) });
    await page.getByRole("button", { name: i.check }).click();
    await expect(page.getByRole("heading", { name: i.dryRunTitle })).toBeVisible();
    await expect(page.getByText(i.bad("1"))).toBeVisible();
    await expectAccessible(page, `import dry run, ${width} px`);
  }
  await page.getByRole("button", { name: i.apply }).click();
  await expect(page.getByRole("heading", { name: i.appliedTitle })).toBeVisible();
  await expect(page.getByText(i.bad("1"))).toBeVisible();
  const download = page.waitForEvent("download");
  await page.getByRole("link", { name: i.download }).click();
  expect((await download).suggestedFilename()).toMatch(/^gearhouse-catalog-[\d-]+\.csv$/);
});
