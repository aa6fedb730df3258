import { readFile } from "node:fs/promises";
import { readZip } from "../src/server/test/zip-reader.js";
import type { Product } from "../src/shared/catalog.js";
import { myDataMessages } from "../src/shared/messages/my-data.js";
import { expectAccessible } from "./support/axe.js";
import { origin, placeOrder, uniqueName } from "./support/data.js";
import { expect, test } from "./support/fixtures.js";

/**
 * Issue 34, item 3: a customer downloads their data from Profile's "Your data" card; the browser
 * saves gearhouse-data-<day>.zip, which holds data.json (their account, profile and orders with the
 * payment and invoice number) and orders.csv, and nothing of another customer's.
 */

const text = myDataMessages.card;

test("a customer downloads their data from Profile: one ZIP of data.json and orders.csv", async ({
  page,
  browser,
  customer,
  users,
  products,
  orders,
}) => {
  const product: Product = await products.add({
    name: uniqueName("Data Fan"),
    image: "/media/products/gale-120-high-static-pressure-fan.svg",
    price: 14,
    quantity: 5_000,
    description: "A fan stocked for the download-my-data journey.",
    category: "cooling-fans",
  });
  const profile = await page.request.post("/api/profile", {
    headers: origin,
    data: { address: "7 Archive Road", city: "Portland", phone: "5550177" },
  });
  expect(profile.status()).toBe(201);
  const paid = await orders.place(page.request, product.id, 10);
  await orders.pay(page.request, paid, customer);
  const unpaid = await orders.place(page.request, product.id, 10);

  // Another customer with an order of their own, which must not be in the file.
  const other = await browser.newContext({ baseURL: test.info().project.use.baseURL });
  let othersOrder: string;
  try {
    await users.signUp(other.request, { tag: "other" });
    // Removed in teardown with its customer, as unpaid.
    othersOrder = (await placeOrder(other.request, product.id, 10)).id;
  } finally {
    await other.close();
  }

  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto("/dashboard/myProfile");
  const card = page.getByRole("region", { name: text.heading, exact: true });
  await expect(card).toBeVisible();
  await expect(card.getByText(text.lead)).toBeVisible();
  await expectAccessible(page, "profile, your data, 1440 px");

  const saved = page.waitForEvent("download");
  await card.getByRole("link", { name: text.download }).click();
  const download = await saved;
  const day = new Date().toISOString().slice(0, 10);
  expect(download.suggestedFilename()).toBe(`gearhouse-data-${day}.zip`);
  const files = readZip(await readFile(await download.path()));
  expect([...files.keys()]).toEqual(["data.json", "orders.csv"]);

  const data = JSON.parse(files.get("data.json")?.toString("utf8") ?? "");
  expect(data.account).toMatchObject({ name: customer.name, email: customer.email });
  expect(data.profile).toMatchObject({ address: "7 Archive Road", city: "Portland" });
  expect(data.orders.map((o: { id: string }) => o.id)).toEqual([unpaid.id, paid.id]);
  expect(data.orders[1]).toMatchObject({
    status: "paid",
    invoiceNumber: expect.stringMatching(/^GH-\d{6,}$/),
    payments: [expect.objectContaining({ cardLast4: "4242" })],
  });
  const csv = files.get("orders.csv")?.toString("utf8") ?? "";
  expect(csv).toContain(`"${paid.id}"`);
  expect(csv).toContain(data.orders[1].invoiceNumber);
  expect(`${JSON.stringify(data)}${csv}`).not.toContain(othersOrder);

  await page.setViewportSize({ width: 390, height: 844 });
  await expect(card.getByRole("link", { name: text.download })).toBeVisible();
  await expectAccessible(page, "profile, your data, 390 px");
});
