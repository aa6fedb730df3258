import type { Page } from "@playwright/test";
import { commonMessages } from "../src/shared/messages/common.js";
import { orderMessages } from "../src/shared/messages/orders.js";
import type { Problem } from "../src/shared/problem.js";
import { problemCodes } from "../src/shared/problem-codes.js";
import { expectAccessible } from "./support/axe.js";
import { uniqueName } from "./support/data.js";
import { expect, type Products, test } from "./support/fixtures.js";

const table = orderMessages.table;

/**
 * Answers the page's matching requests as the shop answers a failure of its own: problem+json with
 * the request's id, in the body and in X-Request-Id. The shop itself would need its database
 * stopped for a 503, which other journeys share.
 */
async function failWith(page: Page, url: string, method: string, problem: Problem) {
  await page.route(url, (route) =>
    route.request().method() === method
      ? route.fulfill({
          status: problem.status,
          contentType: "application/problem+json",
          headers: { "x-request-id": problem.requestId ?? "", "retry-after": "5" },
          body: JSON.stringify(problem),
        })
      : route.fallback(),
  );
}

/** A product of the journey's own, so no other journey's stock moves with it. */
const ownProduct = (products: Products, label: string) =>
  products.add({
    name: uniqueName(label),
    image: "/media/products/drift-ambidextrous-gaming-mouse.svg",
    price: 12,
    quantity: 5_000,
    description: "A mouse for the journeys that see how the client reads the shop's problems.",
    category: "mice",
  });

test("a failure on the shop's side shows the request's reference, for the customer to quote", async ({
  page,
  products,
  orders,
  customer: _,
}) => {
  const product = await ownProduct(products, "Reference Mouse");
  await orders.place(page.request, product.id, 10);

  // The list does not load (503): the failure, its reference and a retry.
  const unavailable = "e2e-503-list";
  await failWith(page, "**/api/orders/mine*", "GET", {
    type: "about:blank",
    title: "Service Unavailable",
    status: 503,
    detail: "The shop is briefly unavailable. Please try again in a moment.",
    requestId: unavailable,
  });
  await page.goto("/dashboard");
  const alert = page.getByRole("main").getByRole("alert");
  await expect(alert).toContainText(commonMessages.loadFailed);
  await expect(alert).toContainText(commonMessages.reference(unavailable));
  await expectAccessible(page, "My Orders, list failed with a reference");

  // Back: Try again shows the list.
  await page.unroute("**/api/orders/mine*");
  await alert.getByRole("button", { name: commonMessages.retry }).click();
  const row = page.getByRole("row").filter({ hasText: product.name });
  await expect(row).toHaveCount(1);

  // Removing fails on the shop's side (500): the toast says so with its reference.
  const fault = "e2e-500-remove";
  await failWith(page, "**/api/orders/*", "DELETE", {
    type: "about:blank",
    title: "Internal Server Error",
    status: 500,
    detail: "Something went wrong on our side. Please try again.",
    requestId: fault,
  });
  await row.getByRole("button", { name: table.removeFor(product.name) }).click();
  await page
    .getByRole("dialog", { name: orderMessages.confirmDelete })
    .getByRole("button", { name: table.confirmRemove })
    .click();
  const toast = page.getByText(commonMessages.reference(fault));
  await expect(toast).toBeVisible();
  await expect(toast).toContainText("Something went wrong on our side. Please try again.");
  await expect(row).toHaveCount(1);
  await expectAccessible(page, "My Orders, removal failed with a reference");
});

test("a booking refused by the code email-not-verified brings up the notice to verify", async ({
  page,
  products,
  customer,
}) => {
  const product = await ownProduct(products, "Unverified Mouse");
  await page.goto(`/tool/${product.id}`);
  const form = orderMessages.form;
  await page.getByLabel(form.address, { exact: true }).fill("7 Circuit Lane, Austin");
  await page.getByLabel(form.phone, { exact: true }).fill("5550142");

  // The account lost its verification after the page read the session (say, its email changed):
  // the shop refuses with the code, and the session, read again, says so.
  await failWith(page, "**/api/orders", "POST", {
    type: "about:blank",
    title: "Forbidden",
    status: 403,
    detail: orderMessages.emailNotVerified,
    code: problemCodes.emailNotVerified,
    requestId: "e2e-403-book",
  });
  await page.route("**/api/session", async (route) => {
    const response = await route.fetch();
    const body = (await response.json()) as { user: Record<string, unknown> | null };
    await route.fulfill({ response, json: { user: body.user && { ...body.user, emailVerified: false } } });
  });
  await page.getByRole("button", { name: form.book }).click();

  const notice = page.getByRole("region", { name: orderMessages.verify.title });
  await expect(notice).toBeVisible();
  await expect(notice.getByText(orderMessages.verify.text(customer.email))).toBeVisible();
  await expect(page.getByRole("button", { name: form.book })).toHaveCount(0);
  // A 4xx is the customer's to act on: no reference.
  await expect(page.getByText(orderMessages.emailNotVerified)).toBeVisible();
  await expect(page.getByText(commonMessages.reference("e2e-403-book"))).toHaveCount(0);
  await expectAccessible(page, "product page, booking refused as unverified");
});
