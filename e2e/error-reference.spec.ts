import type { Page } from "@playwright/test";
import { commonMessages } from "../src/shared/messages/common.js";
import { orderMessages } from "../src/shared/messages/orders.js";
import type { Problem } from "../src/shared/problem.js";
import { expectAccessible } from "./support/axe.js";
import { uniqueName } from "./support/data.js";
import { expect, test } from "./support/fixtures.js";

const table = orderMessages.table;

/**
 * Answers the page's matching requests as the shop answers a failure of its own: problem+json with
 * the request's id, in the body and in X-Request-Id. The shop itself would need its database
 * stopped for a 503, which other journeys share.
 */
async function failWith(page: Page, url: string, method: string, problem: Problem & { requestId: string }) {
  await page.route(url, (route) =>
    route.request().method() === method
      ? route.fulfill({
          status: problem.status,
          contentType: "application/problem+json",
          headers: { "x-request-id": problem.requestId, "retry-after": "5" },
          body: JSON.stringify(problem),
        })
      : route.fallback(),
  );
}

test("a failure on the shop's side shows the request's reference, for the customer to quote", async ({
  page,
  products,
  orders,
  customer: _,
}) => {
  const product = await products.add({
    name: uniqueName("Reference Mouse"),
    image: "/media/products/drift-ambidextrous-gaming-mouse.svg",
    price: 12,
    quantity: 5_000,
    description: "A mouse for the journey that sees a failure's reference.",
    category: "mice",
  });
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
  const toast = page.getByText(commonMessages.reference(fault));
  await expect(toast).toBeVisible();
  await expect(toast).toContainText("Something went wrong on our side. Please try again.");
  await expect(row).toHaveCount(1);
  await expectAccessible(page, "My Orders, removal failed with a reference");
});
