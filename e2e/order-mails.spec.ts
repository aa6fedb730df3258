import { request as apiRequest } from "@playwright/test";
import { pdfText } from "../src/server/test/pdf.js";
import { mailMessages } from "../src/shared/messages/mail.js";
import { paymentMessages } from "../src/shared/messages/payments.js";
import { origin, signInAsAdmin, uniqueName } from "./support/data.js";
import { E2E } from "./support/env.js";
import { expect, test } from "./support/fixtures.js";
import { attachmentOf, waitForMail, waitForRawMail } from "./support/mail.js";
import { payWithCard } from "./support/payment.js";

/**
 * The order mails as a customer receives them (issue 18): sent by the shop from its outbox (every
 * half second in the e2e shop, e2e/support/stack.ts) to the local SMTP server.
 */

/** Every link of a mail's decoded text that points somewhere. */
const links = (text: string) => [...text.matchAll(/href="([^"]+)"/g)].map((m) => m[1] ?? "");

test("a customer who books and pays gets the booking mail, then the receipt with the invoice, then word of the shipment", async ({
  page,
  products,
  orders,
  customer,
}) => {
  const product = await products.add({
    name: uniqueName("Mailed Headset"),
    image: "/media/products/echo-surround-gaming-headset.svg",
    price: 45,
    quantity: 500,
    description: "A headset whose orders the mail journey follows.",
    category: "headphones",
  });
  const order = await orders.place(page.request, product.id, 12);

  const booked = await waitForMail(customer.email, 60_000, (text) => text.includes(mailMessages.placed.lead));
  expect(booked).toContain(product.name);
  expect(booked).toContain("$540");
  expect(booked).toContain(`${E2E.baseURL}/dashboard/payment/${order.id}`);
  expect(booked).toContain("(UTC)");
  for (const href of links(booked)) expect(href.startsWith(`${E2E.baseURL}/`), href).toBe(true);
  expect(booked).not.toMatch(/<img\b/i);

  await page.goto(`/dashboard/payment/${order.id}`);
  await payWithCard(page, "4242 4242 4242 4242");
  await expect(page.getByText(paymentMessages.success)).toBeVisible();

  const receipt = await waitForRawMail(customer.email, (raw) => raw.includes("application/pdf"));
  const pdf = attachmentOf(receipt, "application/pdf");
  expect(pdf?.subarray(0, 5).toString("latin1")).toBe("%PDF-");
  const invoice = (await pdfText(pdf ?? Buffer.alloc(0), { reading: true })).replace(/\s+/g, " ");
  expect(invoice).toContain(product.name);
  expect(invoice).toContain(customer.name);
  expect(invoice).toMatch(/\$540/);

  // The admin ships it with a carrier and a tracking number: the customer is told both.
  const admin = await apiRequest.newContext({ baseURL: E2E.baseURL });
  await signInAsAdmin(admin);
  const shipped = await admin.post(`/api/orders/${order.id}/ship`, {
    data: { carrier: "UPS", trackingNumber: "1Z 999 AA1" },
    headers: origin,
  });
  expect(shipped.status()).toBe(200);
  await admin.dispose();
  const word = await waitForMail(customer.email, 60_000, (text) => text.includes(mailMessages.shipped.lead));
  expect(word).toContain(mailMessages.shipped.carrier("UPS"));
  expect(word).toContain(mailMessages.shipped.tracking("1Z 999 AA1"));
});
