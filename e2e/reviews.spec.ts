import { expect, test } from "@playwright/test";
import { messages } from "../src/shared/messages.js";
import { expectAccessible } from "./support/axe.js";
import { signUpCustomer, uniqueEmail } from "./support/users.js";

const text = messages.reviewForm;

test("a customer writes a review and sees it in the grid and on the home page", async ({ page }) => {
  const customer = await signUpCustomer(page, "reviewer", `Reviewer ${Date.now()}`);
  // The home page first, so its Customer Reviews are cached when the review is posted.
  await page.goto("/");
  await expect(page.getByRole("img", { name: /^Rated [1-5] out of 5$/ })).toHaveCount(3);
  await page.getByRole("link", { name: messages.nav.dashboard }).first().click();
  await page
    .getByRole("navigation", { name: messages.dashboard.menu })
    .getByRole("link", { name: messages.dashboard.addReview })
    .click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(messages.dashboard.addReview);
  await expect(page.getByText(text.postingAs(customer.name))).toBeVisible();

  // Shown as text, never as HTML.
  const comment = `Solid switches, <b>no</b> rattle. ${uniqueEmail("comment")}`;
  await page.getByLabel(text.comment, { exact: true }).fill(comment);
  await page.getByLabel(text.rating, { exact: true }).fill("4");
  await page.getByRole("button", { name: text.submit }).click();
  await expect(page.getByText(text.posted)).toBeVisible();
  await expect(page.getByLabel(text.comment, { exact: true })).toHaveValue("");

  const grid = page.getByRole("region", { name: text.allReviews });
  const first = grid.getByRole("listitem").first();
  await expect(first).toContainText(comment);
  await expect(first).toContainText(customer.name);
  await expect(first.getByRole("img", { name: messages.review.rated(4) })).toBeVisible();

  // Back home inside the app: the cached first three must have been refreshed.
  await page
    .getByRole("navigation", { name: messages.nav.label })
    .getByRole("link", { name: messages.nav.home })
    .click();
  const home = page.getByRole("region", { name: messages.home.customerReviews });
  await expect(home.getByText(comment, { exact: true })).toBeVisible();
});

test("the rating is checked on submit, then on every change", async ({ page }) => {
  await signUpCustomer(page, "rating");
  await page.goto("/dashboard/addReview");
  const rating = page.getByLabel(text.rating, { exact: true });
  await page.getByRole("button", { name: text.submit }).click();
  await expect(page.getByText(messages.review.ratingRange)).toBeVisible();
  await expect(page.getByText(messages.review.commentRequired)).toBeVisible();
  await expect(rating).toHaveAttribute("aria-invalid", "true");

  await rating.fill("6");
  await expect(page.getByText(messages.review.ratingRange)).toBeVisible();
  await rating.fill("0");
  await expect(page.getByText(messages.review.ratingRange)).toHaveCount(0);
  await rating.fill("-1");
  await expect(page.getByText(messages.review.ratingRange)).toBeVisible();
  await rating.fill("5");
  await expect(page.getByText(messages.review.ratingRange)).toHaveCount(0);
  await expectAccessible(page, "/dashboard/addReview");
});
