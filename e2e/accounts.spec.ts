import type { Page } from "@playwright/test";
import { accountMessages } from "../src/shared/messages/accounts.js";
import { commonMessages } from "../src/shared/messages/common.js";
import { dashboardMessages } from "../src/shared/messages/dashboard.js";
import { profileMessages } from "../src/shared/messages/profile.js";
import { expectAccessible } from "./support/axe.js";
import { DEMO_ADMIN, DEMO_CUSTOMER, uniqueEmail } from "./support/data.js";
import { E2E } from "./support/env.js";
import { expect, test } from "./support/fixtures.js";
import { linkTo, waitForMail } from "./support/mail.js";

const form = accountMessages.form;

async function firstProductId(page: Page): Promise<string> {
  const res = await page.request.get("/api/products?pageSize=1");
  return (await res.json()).items[0].id;
}

async function submitSignUp(page: Page, email: string, password: string) {
  await page.goto("/registration");
  await page.getByLabel(form.name, { exact: true }).fill("Journey Tester");
  await page.getByLabel(form.email, { exact: true }).fill(email);
  await page.getByLabel(form.password, { exact: true }).fill(password);
  await page.getByLabel(form.phone, { exact: true }).fill("+1 555 0177");
  await page.getByRole("button", { name: form.signUp }).click();
}

async function signUpInPage(page: Page, email: string, password = "Passw0rd!") {
  await submitSignUp(page, email, password);
  await expect(page).toHaveURL(`${E2E.baseURL}/`);
  await expect(page.getByRole("link", { name: commonMessages.nav.dashboard }).first()).toBeVisible();
}

async function signInInPage(page: Page, email: string, password: string) {
  await page.getByLabel(form.email, { exact: true }).fill(email);
  await page.getByLabel(form.password, { exact: true }).fill(password);
  await page.getByRole("button", { name: form.signIn, exact: true }).click();
}

async function signOut(page: Page) {
  await page.getByRole("button", { name: commonMessages.nav.signOut }).first().click();
  await expect(page).toHaveURL(`${E2E.baseURL}/`);
  await expect(page.getByRole("link", { name: commonMessages.nav.login }).first()).toBeVisible();
}

test("sign up, sign out, then sign in returns to the page the visitor came from", async ({ page, users }) => {
  const email = uniqueEmail("journey");
  users.track(email);
  await signUpInPage(page, email);
  await signOut(page);

  const productPath = `/tool/${await firstProductId(page)}`;
  await page.goto(productPath);
  await expect(page).toHaveURL(/\/login\?redirect=/);
  await signInInPage(page, email, "Passw0rd!");
  await expect(page).toHaveURL(`${E2E.baseURL}${productPath}`);
});

test("signing up with a known email signs no one in, points to the mail, and mails the owner", async ({
  page,
  users,
}) => {
  const email = uniqueEmail("again");
  users.track(email);
  await signUpInPage(page, email);
  await signOut(page);

  await submitSignUp(page, email, "An0therPass");
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByText(accountMessages.checkEmail)).toBeVisible();
  await expect(page.getByRole("link", { name: commonMessages.nav.login }).first()).toBeVisible();
  expect((await page.request.get("/api/me")).status()).toBe(401);
  const exists = "Someone tried to create a Gearhouse account with this email.";
  expect(await waitForMail(email, 60_000, (text) => text.includes(exists))).toContain(exists);
});

test("a wrong password shows the error in the page", async ({ page }) => {
  await page.goto("/login");
  await signInInPage(page, DEMO_CUSTOMER.email, "Wrong0ne!");
  await expect(page.getByRole("alert").filter({ hasText: accountMessages.invalidCredentials })).toBeVisible();
});

test("sign-up shows each validation message on submit, then re-validates on change", async ({ page }) => {
  await page.goto("/registration");
  await page.getByRole("button", { name: form.signUp }).click();
  for (const text of [
    accountMessages.nameRequired,
    accountMessages.emailRequired,
    accountMessages.passwordRequired,
    accountMessages.phoneRequired,
  ]) {
    await expect(page.getByText(text, { exact: true })).toBeVisible();
  }
  await page.getByLabel(form.email, { exact: true }).fill("not-an-email");
  await expect(page.getByText(accountMessages.emailInvalid, { exact: true })).toBeVisible();
  const password = page.getByLabel(form.password, { exact: true });
  await password.fill("Ab1");
  await expect(page.getByText(accountMessages.passwordLength, { exact: true })).toBeVisible();
  await password.fill("lowercase1");
  await expect(page.getByText(accountMessages.passwordPattern, { exact: true })).toBeVisible();
  await password.fill("Upper1lower");
  await expect(page.getByText(accountMessages.passwordPattern, { exact: true })).toHaveCount(0);
  await page.getByLabel(form.name, { exact: true }).fill("Someone");
  await expect(page.getByText(accountMessages.nameRequired, { exact: true })).toHaveCount(0);
  // A name is one line: a text input drops a typed line break, not U+2028 (issue 28).
  const name = page.getByLabel(form.name, { exact: true });
  await name.fill("Mallory\u2028Seller VAT ID: DE000000000");
  await expect(page.getByText(accountMessages.nameOneLine, { exact: true })).toBeVisible();
  await name.fill("Mallory Seller");
  await expect(page.getByText(accountMessages.nameOneLine, { exact: true })).toHaveCount(0);
});

test("password reset through the mail server, then sign in with the new password", async ({
  page,
  users,
}) => {
  const email = uniqueEmail("reset");
  users.track(email);
  await signUpInPage(page, email, "OldPassw0rd");
  await signOut(page);

  await page.goto("/passwordReset");
  await page.getByLabel(form.email, { exact: true }).fill(email);
  await page.getByRole("button", { name: form.sendResetLink }).click();
  await expect(page.getByText(accountMessages.resetSent)).toBeVisible();
  await expect(page).toHaveURL(/\/login$/);

  const link = linkTo(
    await waitForMail(email, 60_000, (text) => text.includes("/passwordReset?token=")),
    "/passwordReset",
  );
  expect(link).toMatch(
    new RegExp(`^${E2E.baseURL.replaceAll(".", "\\.")}/passwordReset\\?token=[A-Za-z0-9]+$`),
  );
  await page.goto(link);
  await page.getByLabel(form.newPassword, { exact: true }).fill("N3wPassword");
  await page.getByLabel(form.confirmPassword, { exact: true }).fill("N3wPassword");
  await page.getByRole("button", { name: form.savePassword }).click();
  await expect(page).toHaveURL(/\/login$/);

  await signInInPage(page, email, "OldPassw0rd");
  await expect(page.getByRole("alert").filter({ hasText: accountMessages.invalidCredentials })).toBeVisible();
  await signInInPage(page, email, "N3wPassword");
  await expect(page).toHaveURL(`${E2E.baseURL}/`);

  // The link works once only.
  await page.goto(link);
  await page.getByLabel(form.newPassword, { exact: true }).fill("An0therPass");
  await page.getByLabel(form.confirmPassword, { exact: true }).fill("An0therPass");
  await page.getByRole("button", { name: form.savePassword }).click();
  await expect(page.getByText(accountMessages.resetLinkInvalid)).toBeVisible();
  // Told by the problem's code (INVALID_TOKEN), not its words: the way to a new link.
  await expect(page.getByRole("link", { name: form.requestNewLink })).toBeVisible();
});

test("an ADMIN_EMAILS address becomes admin only by following the link mailed to it", async ({
  page,
  users,
}) => {
  const d = dashboardMessages;
  users.track(E2E.adminEmail);
  const sidebar = page.getByRole("navigation", { name: d.menu });
  await signUpInPage(page, E2E.adminEmail, "F1rstPassw0rd");
  await page.goto("/dashboard");
  await expect(sidebar.getByRole("link", { name: d.myOrders })).toBeVisible();
  await expect(sidebar.getByRole("link", { name: d.users })).toHaveCount(0);

  const mail = await waitForMail(E2E.adminEmail, 60_000, (text) => text.includes("/passwordReset?token="));
  expect(mail).toContain("Confirm your email to become a Gearhouse admin");
  await page.goto(linkTo(mail, "/passwordReset"));
  await page.getByLabel(form.newPassword, { exact: true }).fill("Adm1nPassw0rd");
  await page.getByLabel(form.confirmPassword, { exact: true }).fill("Adm1nPassw0rd");
  await page.getByRole("button", { name: form.savePassword }).click();
  await expect(page).toHaveURL(/\/login$/);

  // The session of the sign-up ended with the reset; the password set through the link opens the admin's dashboard.
  await signInInPage(page, E2E.adminEmail, "Adm1nPassw0rd");
  await expect(page).toHaveURL(`${E2E.baseURL}/`);
  await page.goto("/dashboard");
  await expect(sidebar.getByRole("link", { name: d.users })).toBeVisible();
  await expect(sidebar.getByRole("link", { name: d.myOrders })).toHaveCount(0);
});

test("Google sign-in through the local OpenID provider", async ({ page, users }) => {
  users.track(E2E.googleUser.email);
  await page.goto("/login");
  await page.getByRole("button", { name: form.google }).click();
  await expect(page).toHaveURL(`${E2E.baseURL}/`);
  await expect(page.getByRole("button", { name: commonMessages.nav.signOut }).first()).toBeVisible();
  const me = await page.request.get("/api/me");
  expect(await me.json()).toMatchObject({ email: E2E.googleUser.email, role: "user" });
});

test("profile: create, then update", async ({ page, customer: _ }) => {
  await page.goto("/dashboard/myProfile");
  const text = profileMessages.form;
  // The mode follows the saved profile once it has arrived (until then the boxes wait, disabled).
  await expect(page.getByLabel(text.createMode)).toBeEnabled();
  await page.getByLabel(text.createMode).check();
  await page.getByLabel(text.address, { exact: true }).fill("12 Loop Road");
  await page.getByLabel(text.city, { exact: true }).fill("Austin");
  await page.getByLabel(text.phone, { exact: true }).fill("5550123");
  await expect(page.getByRole("button", { name: text.update, exact: true })).toBeDisabled();
  await page.getByRole("button", { name: text.submit, exact: true }).click();
  await expect(page.getByText(profileMessages.created)).toBeVisible();
  await expect(page.getByText("Austin").first()).toBeVisible();

  await page.getByLabel(text.updateMode).check();
  await expect(page.getByLabel(text.createMode)).not.toBeChecked();
  await expect(page.getByRole("button", { name: text.submit, exact: true })).toBeDisabled();
  await page.getByLabel(text.city, { exact: true }).fill("Denver");
  await page.getByRole("button", { name: text.update, exact: true }).click();
  await expect(page.getByText(profileMessages.updated)).toBeVisible();
  await page.reload();
  await expect(page.getByText("Denver").first()).toBeVisible();
});

test("the dashboard sidebar depends on the role", async ({ page }) => {
  const d = dashboardMessages;
  await page.goto("/login");
  await signInInPage(page, DEMO_CUSTOMER.email, DEMO_CUSTOMER.password);
  await expect(page).toHaveURL(`${E2E.baseURL}/`);
  await page.goto("/dashboard");
  const sidebar = page.getByRole("navigation", { name: d.menu });
  await expect(sidebar.getByRole("link", { name: d.myOrders })).toBeVisible();
  await expect(sidebar.getByRole("link", { name: d.addReview })).toBeVisible();
  await expect(sidebar.getByRole("link", { name: d.myProfile })).toBeVisible();
  await expect(sidebar.getByRole("link", { name: d.users })).toHaveCount(0);
  await signOut(page);

  await page.goto("/login");
  await signInInPage(page, DEMO_ADMIN.email, DEMO_ADMIN.password);
  await expect(page).toHaveURL(`${E2E.baseURL}/`);
  await page.goto("/dashboard");
  for (const name of [d.adminOverview, d.users, d.manageOrders, d.addProduct, d.makeAdmin, d.myProfile]) {
    await expect(sidebar.getByRole("link", { name })).toBeVisible();
  }
  await expect(sidebar.getByRole("link", { name: d.myOrders })).toHaveCount(0);
});

test("no serious accessibility violations on the account pages", async ({ page, users }) => {
  for (const path of ["/login", "/registration", "/passwordReset"]) {
    await page.goto(path);
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    await expectAccessible(page, path);
  }
  const email = uniqueEmail("axe");
  users.track(email);
  await signUpInPage(page, email);
  await page.goto("/dashboard/myProfile");
  await expect(page.getByLabel(profileMessages.form.address, { exact: true })).toBeVisible();
  await expectAccessible(page);
});
