import type { Locator } from "@playwright/test";
import { commonMessages } from "../src/shared/messages/common.js";
import { dashboardMessages } from "../src/shared/messages/dashboard.js";
import { homeMessages } from "../src/shared/messages/home.js";
import { reviewMessages } from "../src/shared/messages/reviews.js";
import { expectAccessible } from "./support/axe.js";
import { origin, uniqueSuffix } from "./support/data.js";
import { expect, test } from "./support/fixtures.js";

const text = reviewMessages.form;
/** The default REVIEW_LIMIT_PER_HOUR, which the browser tests' shop keeps. */
const REVIEWS_AN_HOUR = 5;
/** The mark a review written by an admin carries: a badge with its text, not only a colour. */
const staffMark = (card: Locator) => card.getByText(reviewMessages.staff, { exact: true });

// The home page shows the three newest reviews of the one shop all journeys share: these journeys
// write reviews, so they hold a lock and never run at once, and none pushes another's out of sight.
test.describe.configure({ lock: "reviews" });

test("a customer writes a review and sees it in the grid and on the home page", async ({
  page,
  customer,
}) => {
  // The home page first, so its Customer Reviews are cached when the review is posted.
  await page.goto("/");
  await expect(page.getByRole("img", { name: /^Rated [1-5] out of 5$/ })).toHaveCount(3);
  await page.getByRole("link", { name: commonMessages.nav.dashboard }).first().click();
  await page
    .getByRole("navigation", { name: dashboardMessages.menu })
    .getByRole("link", { name: dashboardMessages.addReview })
    .click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(dashboardMessages.addReview);
  await expect(page.getByText(text.postingAs(customer.name))).toBeVisible();

  // Shown as text, never as HTML.
  const comment = `Solid switches, <b>no</b> rattle. ${uniqueSuffix()}`;
  await page.getByLabel(text.comment, { exact: true }).fill(comment);
  await page.getByLabel(text.rating, { exact: true }).fill("4");
  await page.getByRole("button", { name: text.submit }).click();
  await expect(page.getByText(text.posted)).toBeVisible();
  await expect(page.getByLabel(text.comment, { exact: true })).toHaveValue("");

  const grid = page.getByRole("region", { name: text.allReviews });
  const first = grid.getByRole("listitem").first();
  await expect(first).toContainText(comment);
  await expect(first).toContainText(customer.name);
  await expect(first.getByRole("img", { name: reviewMessages.rated(4) })).toBeVisible();

  // Back home inside the app: the cached first three must have been refreshed.
  await page
    .getByRole("navigation", { name: commonMessages.nav.label })
    .getByRole("link", { name: commonMessages.nav.home })
    .click();
  const home = page.getByRole("region", { name: homeMessages.customerReviews });
  await expect(home.getByText(comment, { exact: true })).toBeVisible();
});

test("the rating is checked on submit, then on every change", async ({ page, customer: _ }) => {
  await page.goto("/dashboard/addReview");
  const rating = page.getByLabel(text.rating, { exact: true });
  await page.getByRole("button", { name: text.submit }).click();
  await expect(page.getByText(reviewMessages.ratingRange)).toBeVisible();
  await expect(page.getByText(reviewMessages.commentRequired)).toBeVisible();
  await expect(rating).toHaveAttribute("aria-invalid", "true");

  await rating.fill("6");
  await expect(page.getByText(reviewMessages.ratingRange)).toBeVisible();
  await rating.fill("0");
  await expect(page.getByText(reviewMessages.ratingRange)).toHaveCount(0);
  await rating.fill("-1");
  await expect(page.getByText(reviewMessages.ratingRange)).toBeVisible();
  await rating.fill("5");
  await expect(page.getByText(reviewMessages.ratingRange)).toHaveCount(0);
  await expectAccessible(page, "/dashboard/addReview");
});

test("the review past the hour's limit is refused in the form, which says why and keeps the text", async ({
  page,
  customer: _,
}) => {
  for (let i = 1; i <= REVIEWS_AN_HOUR; i++) {
    const posted = await page.request.post("/api/reviews", {
      headers: origin,
      data: { comment: `Review ${i} of the hour.`, rating: 4 },
    });
    expect(posted.status()).toBe(201);
  }
  await page.goto("/dashboard/addReview");
  const comment = "One review too many.";
  await page.getByLabel(text.comment, { exact: true }).fill(comment);
  await page.getByLabel(text.rating, { exact: true }).fill("3");
  const answer = page.waitForResponse(
    (r) => r.url().endsWith("/api/reviews") && r.request().method() === "POST",
  );
  await page.getByRole("button", { name: text.submit }).click();
  const refused = await answer;
  expect(refused.status()).toBe(429);
  const minutes = Math.ceil(Number(refused.headers()["retry-after"]) / 60);

  const form = page.getByRole("region", { name: text.title });
  await expect(form.getByRole("alert")).toHaveText(reviewMessages.rateLimited(REVIEWS_AN_HOUR, minutes));
  await expect(page.getByLabel(text.comment, { exact: true })).toHaveValue(comment);
  await expect(page.getByRole("region", { name: text.allReviews })).not.toContainText(comment);
  await expectAccessible(page, "/dashboard/addReview with the limit reached");
});

test("an admin's review carries the Staff mark in the grid and on the home page", async ({
  page,
  admin: _,
}) => {
  // A still page: no slide moves while axe measures contrast on the home page.
  await page.emulateMedia({ reducedMotion: "reduce" });
  await page.goto("/dashboard/addReview");
  const comment = `Cyclone fans are back in stock on Friday. ${uniqueSuffix()}`;
  await page.getByLabel(text.comment, { exact: true }).fill(comment);
  await page.getByLabel(text.rating, { exact: true }).fill("5");
  await page.getByRole("button", { name: text.submit }).click();
  await expect(page.getByText(text.posted)).toBeVisible();

  const cards = page.getByRole("region", { name: text.allReviews }).getByRole("listitem");
  await expect(cards.first()).toContainText(comment);
  await expect(staffMark(cards.first())).toBeVisible();
  // The last of the first page is an older review, a customer's: no mark.
  await expect(staffMark(cards.last())).toHaveCount(0);

  await page
    .getByRole("navigation", { name: commonMessages.nav.label })
    .getByRole("link", { name: commonMessages.nav.home })
    .click();
  const newest = page
    .getByRole("region", { name: homeMessages.customerReviews })
    .getByRole("listitem")
    .first();
  await expect(newest).toContainText(comment);
  await expect(staffMark(newest)).toBeVisible();
  await expectAccessible(page, "/ with a staff review", ["wcag2a", "wcag2aa", "wcag21aa", "wcag22aa"]);
});
