import { accountMessages } from "../src/shared/messages/accounts.js";
import { secondFactorMessages } from "../src/shared/messages/second-factor.js";
import { expectAccessible } from "./support/axe.js";
import { signedInElsewhere } from "./support/data.js";
import { expect, test } from "./support/fixtures.js";
import { waitForMail } from "./support/mail.js";

const text = accountMessages.changePassword;
const form = accountMessages.form;

test("a customer changes their password in Profile: other sessions end and a mail says so", async ({
  page,
  browser,
  customer,
}) => {
  const elsewhere = await signedInElsewhere(browser, customer);
  try {
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.goto("/dashboard/myProfile");
    const card = page.getByRole("region", { name: text.heading, exact: true });
    await expect(card).toBeVisible();
    await expectAccessible(page, "profile, change password, 1440 px");
    const current = card.getByLabel(text.currentPassword, { exact: true });
    const next = card.getByLabel(form.newPassword, { exact: true });
    const confirm = card.getByLabel(form.confirmPassword, { exact: true });
    const submit = card.getByRole("button", { name: text.submit });

    // The spec's texts, on submit and then on change.
    await submit.click();
    await expect(card.getByText(accountMessages.passwordRequired)).toHaveCount(2);
    await next.fill("short");
    await expect(card.getByText(accountMessages.passwordLength)).toBeVisible();
    await next.fill("alllowercase1");
    await expect(card.getByText(accountMessages.passwordPattern)).toBeVisible();

    // A wrong current password changes nothing.
    await current.fill("Wr0ngPassword");
    await next.fill("Chang3dPass");
    await confirm.fill("Chang3dPass");
    await submit.click();
    await expect(card.getByText(secondFactorMessages.passwordInvalid)).toBeVisible();
    expect((await elsewhere.request.get("/api/me")).status()).toBe(200);

    await current.fill(customer.password);
    await submit.click();
    await expect(page.getByText(text.done)).toBeVisible();
    await expect(current).toHaveValue("");
    // This browser goes on; the other is signed out.
    expect((await page.request.get("/api/me")).status()).toBe(200);
    expect((await elsewhere.request.get("/api/me")).status()).toBe(401);
    const mail = await waitForMail(customer.email, 60_000, (body) =>
      body.includes(accountMessages.passwordChangedMail.othersEnded),
    );
    expect(mail).toContain("/passwordReset");

    await page.setViewportSize({ width: 390, height: 844 });
    await expect(card).toBeVisible();
    await expectAccessible(page, "profile, change password, 390 px");
  } finally {
    await elsewhere.close();
  }
});
