import type { Locator } from "@playwright/test";
import { activityMessages } from "../src/shared/messages/activity.js";
import { commonMessages } from "../src/shared/messages/common.js";
import { dashboardMessages } from "../src/shared/messages/dashboard.js";
import { homeMessages } from "../src/shared/messages/home.js";
import { reviewMessages } from "../src/shared/messages/reviews.js";
import { expectAccessible } from "./support/axe.js";
import { DEMO_ADMIN, origin, signInAsAdmin, uniqueSuffix } from "./support/data.js";
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

test("a customer reports a review, an admin hides it with a reason, its author sees why, and it comes back", async ({
  page,
  browser,
  users,
  customer,
}) => {
  const m = reviewMessages.moderation;
  const baseURL = test.info().project.use.baseURL;
  const comment = `Buy your fans at another shop. ${uniqueSuffix()}`;
  await page.goto("/dashboard/addReview");
  await page.getByLabel(text.comment, { exact: true }).fill(comment);
  await page.getByLabel(text.rating, { exact: true }).fill("1");
  await page.getByRole("button", { name: text.submit }).click();
  await expect(page.getByText(text.posted)).toBeVisible();
  const own = page.getByRole("region", { name: m.yours });
  await expect(own.getByRole("listitem").filter({ hasText: comment })).toContainText(m.onShow);

  const readerContext = await browser.newContext({ baseURL });
  const adminContext = await browser.newContext({ baseURL });
  try {
    // Another customer reports it from the grid, with a reason.
    await users.signUp(readerContext.request, { tag: "reporter" });
    const reader = await readerContext.newPage();
    await reader.goto("/dashboard/addReview");
    const card = reader
      .getByRole("region", { name: text.allReviews })
      .getByRole("listitem")
      .filter({ hasText: comment });
    await card.getByRole("button", { name: m.reportFor(customer.name) }).click();
    const reportDialog = reader.getByRole("dialog", { name: m.reportTitle });
    await expect(reportDialog.getByLabel(m.reason)).toBeFocused();
    await reportDialog.getByLabel(m.reason).fill("Advertising for another shop");
    await reportDialog.getByRole("button", { name: m.report }).click();
    await expect(reader.getByText(m.reported)).toBeVisible();

    // The admin reads the report and hides the review: a reason is required.
    await signInAsAdmin(adminContext.request);
    const admin = await adminContext.newPage();
    await admin.setViewportSize({ width: 1440, height: 900 });
    await admin.goto("/dashboard/reviewModeration");
    const reports = admin.getByRole("table", { name: m.reportsCaption });
    const reported = reports.getByRole("row").filter({ hasText: comment });
    await expect(reported).toContainText("Advertising for another shop");
    await expectAccessible(admin, "review moderation, 1440 px");
    await reported.getByRole("button", { name: m.hideFor(customer.name) }).click();
    const hideDialog = admin.getByRole("dialog", { name: m.hideTitle });
    await hideDialog.getByRole("button", { name: m.hide }).click();
    await expect(hideDialog.getByRole("alert")).toHaveText(m.reasonRequired);
    await hideDialog.getByLabel(m.reason).fill("Advertising is not a review");
    await hideDialog.getByRole("button", { name: m.hide }).click();
    await expect(admin.getByText(m.hidden, { exact: true })).toBeVisible();
    const hiddenRow = admin
      .getByRole("table", { name: m.hiddenCaption })
      .getByRole("row")
      .filter({ hasText: comment });
    await expect(hiddenRow).toContainText(m.hiddenBy(DEMO_ADMIN.email, "Advertising is not a review"));

    // Out of every public list; its author is told why.
    await reader.reload();
    await expect(
      reader.getByRole("region", { name: text.allReviews }).getByRole("listitem").first(),
    ).toBeVisible();
    await expect(reader.getByText(comment)).toHaveCount(0);
    await page.reload();
    await expect(own.getByRole("listitem").filter({ hasText: comment })).toContainText(
      m.hiddenNotice("Advertising is not a review"),
    );
    await expectAccessible(page, "add review with a hidden review");

    // Restored, it is on show again, and both moves are on the record.
    await hiddenRow.getByRole("button", { name: m.restoreFor(customer.name) }).click();
    await expect(admin.getByText(m.restored)).toBeVisible();
    await page.reload();
    await expect(own.getByRole("listitem").filter({ hasText: comment })).toContainText(m.onShow);
    await admin.goto("/dashboard/activity?targetType=review");
    const log = admin.getByRole("table", { name: activityMessages.caption });
    await expect(log.getByRole("row").nth(1)).toContainText(activityMessages.actions["review.restored"]);
    await expect(log.getByRole("row").nth(2)).toContainText(activityMessages.actions["review.hidden"]);
  } finally {
    await readerContext.close();
    await adminContext.close();
  }
});
