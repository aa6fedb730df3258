import { activityMessages } from "../src/shared/messages/activity.js";
import { sessionMessages as t } from "../src/shared/messages/sessions.js";
import { userMessages } from "../src/shared/messages/users.js";
import { expectAccessible } from "./support/axe.js";
import { signedInElsewhere } from "./support/data.js";
import { expect, test } from "./support/fixtures.js";

test("a customer sees where they are signed in and ends another session", async ({
  page,
  browser,
  customer,
}) => {
  const elsewhere = await signedInElsewhere(browser, customer);
  try {
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.goto("/dashboard/myProfile");
    const card = page.getByRole("region", { name: t.heading, exact: true });
    const rows = card.getByRole("row");
    // The header row, this browser and the other one.
    await expect(rows).toHaveCount(3);
    await expect(card.getByText(t.thisBrowser)).toHaveCount(1);
    await expectAccessible(page, "profile with sessions, 1440 px");

    const other = rows.filter({ hasNot: page.getByText(t.thisBrowser) }).nth(1);
    await other.getByRole("button", { name: t.end }).click();
    await expect(page.getByText(t.ended)).toBeVisible();
    await expect(rows).toHaveCount(2);
    expect((await elsewhere.request.get("/api/me")).status()).toBe(401);

    // None other left: ending all others says so, and this one goes on.
    await card.getByRole("button", { name: t.endOthers }).click();
    await expect(page.getByText(t.noOthers)).toBeVisible();
    expect((await page.request.get("/api/me")).status()).toBe(200);
    await page.setViewportSize({ width: 390, height: 844 });
    await expect(card).toBeVisible();
    await expectAccessible(page, "profile with sessions, 390 px");
  } finally {
    await elsewhere.close();
  }
});

test("an admin ends every session of a user, on the record", async ({ page, browser, users, admin: _ }) => {
  const elsewhere = await browser.newContext({ baseURL: test.info().project.use.baseURL });
  try {
    const target = await users.signUp(elsewhere.request, { tag: "signed-out" });
    expect((await elsewhere.request.get("/api/me")).status()).toBe(200);
    await page.goto("/dashboard/users");
    await page.getByRole("searchbox", { name: userMessages.searchLabel }).fill(target.email);
    await page.getByRole("button", { name: t.endUserSessionsNamed(target.email) }).click();
    await expect(page.getByText(t.endedUser(1))).toBeVisible();
    expect((await elsewhere.request.get("/api/me")).status()).toBe(401);

    await page.goto(`/dashboard/activity?action=user.sessions_ended&targetType=user&targetId=${target.id}`);
    const entry = page.getByRole("table", { name: activityMessages.caption }).getByRole("row").nth(1);
    await expect(entry).toContainText(activityMessages.actions["user.sessions_ended"]);
    await expect(entry).toContainText(activityMessages.change("sessions", "1", "0"));
    await entry.getByRole("link", { name: `${activityMessages.targets.user} ${target.email}` }).click();
    await expect(page).toHaveURL(/\/dashboard\/users\?search=/);
  } finally {
    await elsewhere.close();
  }
});
