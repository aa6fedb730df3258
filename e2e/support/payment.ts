import { expect, type Page } from "@playwright/test";
import type { Product } from "../../src/shared/catalog.js";
import { paymentMessages } from "../../src/shared/messages/payments.js";

const card = paymentMessages.page;

/** A product's stock as the shop answers it now. */
export async function stockOf(page: Page, id: string): Promise<number> {
  return ((await (await page.request.get(`/api/products/${id}`)).json()) as Product).quantity;
}

/** Fills the sandbox card form on the payment page with `number` and presses Pay. */
export async function payWithCard(page: Page, number: string) {
  const pay = page.getByRole("button", { name: /^Pay \$/ });
  await expect(pay).toBeEnabled();
  await page.getByLabel(card.cardNumber, { exact: true }).fill(number);
  await page.getByLabel(card.expiry, { exact: true }).fill("12/34");
  await page.getByLabel(card.cvc, { exact: true }).fill("123");
  await pay.click();
}
