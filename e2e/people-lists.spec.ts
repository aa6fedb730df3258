import type { APIRequestContext, Page } from "@playwright/test";
import { REVIEW_PAGE_SIZE } from "../src/shared/constants.js";
import { pagingMessages } from "../src/shared/messages/paging.js";
import { reviewMessages } from "../src/shared/messages/reviews.js";
import { userMessages } from "../src/shared/messages/users.js";
import { LIST_PAGE_SIZE } from "../src/shared/paging.js";
import { expectAccessible } from "./support/axe.js";
import { type Account, origin, signIn, uniqueTag } from "./support/data.js";
import { expect, test, type Users } from "./support/fixtures.js";

const t = userMessages;

/**
 * Signs up `count` customers named "<tag> <n>" in a request context of their own (the page stays
 * signed in as the admin), one at a time; answers them in sign-up order. `tag` is a word no other
 * journey's names contain (uniqueTag), so a search finds this journey's users only.
 */
async function signUpMany(users: Users, request: APIRequestContext, tag: string, count: number) {
  const people: Account[] = [];
  for (let n = 1; n <= count; n++) {
    people.push(await users.signUp(request, { tag, name: `${tag} ${String(n).padStart(2, "0")}` }));
  }
  return people;
}

const search = (page: Page) => page.getByRole("searchbox", { name: t.searchLabel });
const chip = (page: Page, label: string) =>
  page.getByRole("navigation", { name: t.roleFilter }).getByRole("link", { name: label, exact: true });
const status = (page: Page) => page.getByRole("main").getByRole("status");
const bodyRows = (page: Page) => page.getByRole("table").locator("tbody tr");

test("All users: a debounced search and role chips, kept in the URL through back and forward", async ({
  page,
  request,
  users,
  admin: _,
}) => {
  const tag = uniqueTag("Lister");
  const [, promoted] = await signUpMany(users, request, tag, 3);
  if (!promoted) throw new Error("not signed up");
  const made = await page.request.put(`/api/users/${promoted.id}/role`, {
    headers: origin,
    data: { role: "admin" },
  });
  expect(made.status()).toBe(200);

  await page.goto("/dashboard/users");
  await expect(page.getByRole("table", { name: t.caption })).toBeVisible();
  await search(page).fill(tag.toLowerCase());
  await expect(page).toHaveURL(`/dashboard/users?search=${tag.toLowerCase()}`);
  await expect(bodyRows(page)).toHaveCount(3);
  await expect(status(page)).toHaveText(t.showing(t.count(3, true), 1, 3));
  // Newest first.
  await expect(bodyRows(page).first()).toContainText(`${tag} 03`);

  await chip(page, t.roleChips.admin).click();
  await expect(page).toHaveURL(`/dashboard/users?search=${tag.toLowerCase()}&role=admin`);
  await expect(chip(page, t.roleChips.admin)).toHaveAttribute("aria-current", "page");
  await expect(bodyRows(page)).toHaveCount(1);
  await expect(bodyRows(page)).toContainText(promoted.email);

  await chip(page, t.roleChips.user).click();
  await expect(bodyRows(page)).toHaveCount(2);
  await expect(bodyRows(page).filter({ hasText: promoted.email })).toHaveCount(0);

  await page.goBack();
  await expect(page).toHaveURL(/role=admin$/);
  await expect(bodyRows(page)).toHaveCount(1);
  await page.goBack();
  await expect(page).toHaveURL(`/dashboard/users?search=${tag.toLowerCase()}`);
  await expect(bodyRows(page)).toHaveCount(3);
  await page.goBack();
  await expect(page).toHaveURL("/dashboard/users");
  await expect(search(page)).toHaveValue("");
  await page.goForward();
  await expect(search(page)).toHaveValue(tag.toLowerCase());
  await expect(bodyRows(page)).toHaveCount(3);

  // A shared link shows the same list.
  const shared = await page.context().newPage();
  await shared.goto(`/dashboard/users?search=${tag.toLowerCase()}&role=admin`);
  await expect(search(shared)).toHaveValue(tag.toLowerCase());
  await expect(bodyRows(shared)).toHaveCount(1);
  await expect(bodyRows(shared)).toContainText(promoted.email);

  // Nothing found: said, with a way back to everyone.
  await search(page).fill(`${tag}nobody`);
  await search(page).press("Enter");
  await expect(status(page)).toHaveText(t.count(0, true));
  await expect(page.getByRole("cell", { name: t.noMatch })).toBeVisible();
  await page.getByRole("link", { name: t.clearFilters }).click();
  await expect(page).toHaveURL("/dashboard/users");
  await expect(search(page)).toHaveValue("");
  await expect(bodyRows(page).first().getByRole("rowheader")).toHaveText("1");
  await expectAccessible(page, "/dashboard/users searched");
});

test("Make Admin: pages of users with Previous and Next, one page in the page, numbered across pages", async ({
  page,
  request,
  users,
  admin: _,
}) => {
  const tag = uniqueTag("Pager");
  const people = await signUpMany(users, request, tag, LIST_PAGE_SIZE + 2);
  await page.goto(`/dashboard/admin?search=${tag.toLowerCase()}`);
  const pages = page.getByRole("navigation", { name: t.pages });
  const next = pages.getByRole("link", { name: t.next });
  const previous = pages.getByRole("link", { name: t.previous });

  await expect(status(page)).toHaveText(t.showing(t.count(people.length, true), 1, LIST_PAGE_SIZE));
  await expect(bodyRows(page)).toHaveCount(LIST_PAGE_SIZE);
  await expect(bodyRows(page).first().getByRole("rowheader")).toHaveText("1");
  await expect(previous).toHaveAttribute("aria-disabled", "true");

  // By keyboard: Next keeps the focus, even as it turns disabled on the last page.
  await next.focus();
  await page.keyboard.press("Enter");
  await expect(status(page)).toHaveText(
    t.showing(t.count(people.length, true), LIST_PAGE_SIZE + 1, people.length),
  );
  await expect(page).toHaveURL(/[?&]cursor=[\w-]+/);
  await expect(page).toHaveURL(/[?&]page=2/);
  await expect(bodyRows(page)).toHaveCount(2);
  await expect(bodyRows(page).first().getByRole("rowheader")).toHaveText(String(LIST_PAGE_SIZE + 1));
  // The two oldest of this journey's users are on the second page.
  await expect(bodyRows(page).last()).toContainText(people[0]?.email ?? "");
  await expect(next).toHaveAttribute("aria-disabled", "true");
  await expect(next).toBeFocused();
  await expectAccessible(page, "/dashboard/admin, page 2");

  await previous.click();
  await expect(page).toHaveURL(/[?&]before=[\w-]+/);
  await expect(bodyRows(page)).toHaveCount(LIST_PAGE_SIZE);
  await expect(bodyRows(page).first()).toContainText(people.at(-1)?.email ?? "");
  await expect(bodyRows(page).first().getByRole("rowheader")).toHaveText("1");

  await page.goBack();
  await expect(bodyRows(page)).toHaveCount(2);
  await page.goBack();
  await expect(page).toHaveURL(`/dashboard/admin?search=${tag.toLowerCase()}`);
  await expect(bodyRows(page)).toHaveCount(LIST_PAGE_SIZE);

  // A role change on a later page keeps the admin on that page.
  await next.click();
  const oldest = people[0];
  if (!oldest) throw new Error("not signed up");
  const row = bodyRows(page).filter({ hasText: oldest.email });
  await row.getByRole("button", { name: t.makeAdminFor(oldest.name) }).click();
  await page
    .getByRole("dialog", { name: t.makeAdminTitle(oldest.name) })
    .getByRole("button", { name: t.makeAdmin })
    .click();
  await expect(page.getByText(userMessages.madeAdmin)).toBeVisible();
  await expect(row.getByText(t.roles.admin, { exact: true })).toBeVisible();
  await expect(bodyRows(page)).toHaveCount(2);
});

test("a forged page link says why and leads back to all users", async ({ page, admin: _ }) => {
  await page.goto("/dashboard/users?cursor=not-a-real-cursor");
  await expect(page.getByRole("alert")).toContainText(pagingMessages.badCursor);
  await page.getByRole("link", { name: t.clearFilters }).click();
  await expect(page.getByRole("table", { name: t.caption })).toBeVisible();
});

test("at 390 px wide each user is a card, its details and button in view", async ({
  page,
  request,
  users,
  admin: _,
}) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.emulateMedia({ reducedMotion: "reduce" });
  const tag = uniqueTag("Narrow");
  const [person] = await signUpMany(users, request, tag, 2);
  if (!person) throw new Error("not signed up");
  for (const path of ["/dashboard/users", "/dashboard/admin"]) {
    await page.goto(`${path}?search=${tag.toLowerCase()}`);
    const list = page.getByRole("region", { name: path.endsWith("users") ? t.caption : t.rolesCaption });
    const card = list.getByRole("listitem").filter({ hasText: person.email });
    await expect(card).toBeVisible();
    await expect(list.getByRole("listitem")).toHaveCount(2);
    await expect(page.getByRole("table")).toHaveCount(0);
    // All users has End sessions and Remove; Make Admin one button.
    const buttons = card.getByRole("button");
    await expect(buttons).toHaveCount(path.endsWith("users") ? 2 : 1);
    for (const button of await buttons.all()) {
      await expect(button).toBeVisible();
      const box = await button.boundingBox();
      expect((box?.x ?? 0) + (box?.width ?? 0)).toBeLessThanOrEqual(390);
    }
    const scrollWidth = await page.evaluate("document.documentElement.scrollWidth");
    expect(scrollWidth).toBeLessThanOrEqual(390);
    await expectAccessible(page, `${path} at 390 px`);
  }
});

test.describe("the Reviews page", () => {
  // Writes reviews, which the home page's newest three show: one review-writing journey at a time.
  test.describe.configure({ lock: "reviews" });

  test("loads more reviews as the visitor goes, and by keyboard, saying how many it shows", async ({
    page,
    request,
    users,
    customer: _,
  }) => {
    // Enough reviews for three pages beyond what the shop has: five an hour per account.
    const writers = await signUpMany(users, request, uniqueTag("Writer"), 4);
    for (const writer of writers) {
      await signIn(request, writer);
      for (let i = 1; i <= 5; i++) {
        const posted = await request.post("/api/reviews", {
          headers: origin,
          data: { comment: `${writer.name}: review ${i} of 5.`, rating: 4 },
        });
        expect(posted.status()).toBe(201);
      }
    }
    const total = ((await (await request.get("/api/reviews?limit=1")).json()) as { total: { count: number } })
      .total.count;
    expect(total).toBeGreaterThan(2 * REVIEW_PAGE_SIZE);

    await page.emulateMedia({ reducedMotion: "reduce" });
    await page.goto("/dashboard/addReview");
    const grid = page.getByRole("region", { name: reviewMessages.form.allReviews });
    const cards = grid.getByRole("listitem");
    const feedStatus = grid.getByRole("status");
    const reviewCount = reviewMessages.form.count(total, true);
    await expect(cards).toHaveCount(REVIEW_PAGE_SIZE);
    await expect(cards.first()).toContainText(`${writers.at(-1)?.name}: review 5 of 5.`);
    await expect(feedStatus).toHaveText(reviewMessages.form.showing(REVIEW_PAGE_SIZE, reviewCount));

    // Scrolling near the end loads the next page by itself.
    const loadMore = grid.getByRole("button", { name: reviewMessages.form.loadMore });
    await loadMore.scrollIntoViewIfNeeded();
    await expect(cards).toHaveCount(2 * REVIEW_PAGE_SIZE);
    await expect(feedStatus).toHaveText(reviewMessages.form.showing(2 * REVIEW_PAGE_SIZE, reviewCount));

    // The keyboard's way: Load more, pressed until every review is shown, keeps the focus meanwhile.
    while ((await cards.count()) < total) {
      const before = await cards.count();
      await loadMore.focus();
      await page.keyboard.press("Enter");
      await expect.poll(() => cards.count()).toBeGreaterThan(before);
      if ((await cards.count()) < total) await expect(loadMore).toBeFocused();
    }
    await expect(cards).toHaveCount(total);
    await expect(feedStatus).toHaveText(reviewMessages.form.allShown(reviewCount));
    await expect(loadMore).toHaveCount(0);
    await expectAccessible(page, "/dashboard/addReview, every review loaded");
  });
});
