import { accountMessages } from "../src/shared/messages/accounts.js";
import { emailChangeMessages as m } from "../src/shared/messages/email-change.js";
import { expectAccessible } from "./support/axe.js";
import { origin, uniqueEmail } from "./support/data.js";
import { expect, test } from "./support/fixtures.js";
import { waitForMail } from "./support/mail.js";

const text = m.card;

/** The link to /confirm-email in a mail's text, as a path on the shop. */
function confirmLinkIn(mail: string): string {
  const link = mail.match(/https?:\/\/[^\s"<>]+\/confirm-email\?token=[^\s"<>]+/)?.[0];
  if (!link) throw new Error("No confirm-email link in the mail");
  const url = new URL(link);
  return `${url.pathname}${url.search}`;
}

test("a customer changes their email in Profile: the link in the new inbox makes it so, and the old address is told", async ({
  page,
  browser,
  customer,
}) => {
  const next = uniqueEmail("moved");
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto("/dashboard/myProfile");
  const card = page.getByRole("region", { name: text.heading, exact: true });
  await expect(card).toBeVisible();
  await expect(card.getByText(text.current(customer.email))).toBeVisible();
  await expectAccessible(page, "profile, change email, 1440 px");
  const newEmail = card.getByLabel(text.newEmail, { exact: true });
  const password = card.getByLabel(text.password, { exact: true });
  const submit = card.getByRole("button", { name: text.submit });

  // The sign-up's texts at the fields, then the server's refusals at theirs.
  await submit.click();
  await expect(card.getByText(accountMessages.emailRequired)).toBeVisible();
  await expect(card.getByText(accountMessages.passwordRequired)).toBeVisible();
  await newEmail.fill("not-an-address");
  await expect(card.getByText(accountMessages.emailInvalid)).toBeVisible();
  await newEmail.fill(customer.email);
  await password.fill(customer.password);
  await submit.click();
  await expect(card.getByText(m.same)).toBeVisible();
  await newEmail.fill(next);
  await password.fill("Wr0ngPassword");
  await submit.click();
  await expect(card.getByText(m.passwordInvalid)).toBeVisible();
  await expect(password).toBeFocused();

  await password.fill(customer.password);
  await submit.click();
  await expect(card.getByText(text.sent(next, 24))).toBeVisible();
  await expect(newEmail).toHaveValue("");
  // Nothing changes before the link is followed.
  expect(((await (await page.request.get("/api/me")).json()) as { email: string }).email).toBe(
    customer.email,
  );

  await page.setViewportSize({ width: 390, height: 844 });
  await expect(card).toBeVisible();
  await expectAccessible(page, "profile, change email, 390 px");

  const link = confirmLinkIn(
    await waitForMail(next, 60_000, (mail) => mail.includes("/confirm-email?token=")),
  );
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto(link);
  await expect(page.getByRole("heading", { level: 1, name: m.confirm.title })).toBeVisible();
  await expectAccessible(page, "confirm email, 1440 px");
  await page.getByRole("button", { name: m.confirm.submit }).click();
  await expect(page.getByText(m.confirm.done(next))).toBeVisible();
  await page.setViewportSize({ width: 390, height: 844 });
  await expectAccessible(page, "confirm email done, 390 px");

  // The old address is told; the link works once only, and says so readably.
  const told = await waitForMail(customer.email, 60_000, (mail) => mail.includes(m.changedMail.subject));
  expect(told).not.toContain(next);
  await page.goto(link);
  await page.getByRole("button", { name: m.confirm.submit }).click();
  await expect(page.getByText(m.linkInvalid)).toBeVisible();
  await expectAccessible(page, "confirm email refused, 390 px");

  // Signing in takes the new address, and no longer the old one.
  const elsewhere = await browser.newContext({ baseURL: test.info().project.use.baseURL });
  try {
    await elsewhere.clearCookies();
    const signInPage = await elsewhere.newPage();
    await signInPage.goto("/login");
    await signInPage.getByLabel(accountMessages.form.email, { exact: true }).fill(next);
    await signInPage.getByLabel(accountMessages.form.password, { exact: true }).fill(customer.password);
    await signInPage.getByRole("button", { name: accountMessages.form.signIn, exact: true }).click();
    await expect(signInPage).not.toHaveURL(/\/login/);
    const me = (await (await signInPage.request.get("/api/me")).json()) as { email: string };
    expect(me.email).toBe(next);
    const old = await elsewhere.request.post("/api/auth/sign-in/email", {
      headers: origin,
      data: { email: customer.email, password: customer.password },
    });
    expect(old.status()).toBe(401);
  } finally {
    await elsewhere.close();
  }
});
