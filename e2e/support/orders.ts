import { type APIRequestContext, expect } from "@playwright/test";
import type { Order } from "../../src/shared/orders.js";
import { E2E } from "./env.js";
import type { Customer } from "./users.js";

const origin = { origin: E2E.baseURL };

/** Books `quantity` units through the API, as the request context's signed-in customer. */
export async function placeOrder(
  request: APIRequestContext,
  productId: string,
  quantity = 10,
): Promise<Order> {
  const response = await request.post("/api/orders", {
    headers: origin,
    data: { productId, quantity, address: "9 Dock Street, Austin", phone: "5550142" },
  });
  expect(response.status()).toBe(201);
  return (await response.json()) as Order;
}

/** Pays through the sandbox provider as the customer would from the payment page. */
export async function payOrder(request: APIRequestContext, order: Order, customer: Customer) {
  const intent = await request.post(`/api/orders/${order.id}/payment-intent`, { headers: origin });
  expect(intent.status()).toBe(200);
  const { clientSecret } = (await intent.json()) as { clientSecret: string };
  const confirm = await request.post("/api/payments/sandbox/confirm", {
    headers: origin,
    data: {
      clientSecret,
      card: { number: "4242424242424242", expMonth: 12, expYear: 2034, cvc: "123" },
      billing: { name: customer.name, email: customer.email },
    },
  });
  expect(confirm.status()).toBe(200);
  const { paymentIntent } = (await confirm.json()) as { paymentIntent: { id: string } };
  const paid = await request.post(`/api/orders/${order.id}/pay`, {
    headers: origin,
    data: { transactionId: paymentIntent.id },
  });
  expect(paid.status()).toBe(200);
}
