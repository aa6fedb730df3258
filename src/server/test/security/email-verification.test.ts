import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { accountMessages } from "../../../shared/messages/accounts.js";
import { orderMessages } from "../../../shared/messages/orders.js";
import { users } from "../../db/schema/index.js";
import { sendAdminLink } from "../../features/accounts/admin-link.js";
import { DEMO_ACCOUNTS, setUpAccounts } from "../../features/accounts/setup.js";
import { setUpTestApp } from "../app.js";
import { stockedProduct } from "../products.js";
import {
  cookieHeader,
  followVerificationLink,
  fromShop,
  memoryMailer,
  ORIGIN,
  signUp,
  uniqueEmail,
  verificationLinkIn,
} from "../users.js";

/**
 * Booking needs a verified email (issue 28, item 2; docs/product.md): a link is mailed at sign-up,
 * the signed-in customer may ask for it again (capped per address), and following it verifies the
 * address and brings the customer back to the page they were on, never to another site.
 */

const mailer = memoryMailer();
const ctx = setUpTestApp({}, { mailer, rateLimit: { max: 10_000, windowSeconds: 60 } });

const ORDER = { quantity: 10, address: "1 Loop Road, Austin", phone: "5550123" };
const book = (cookie: string, productId: string) =>
  fromShop(ctx.app, "POST", "/api/orders", cookie, { productId, ...ORDER });
const me = async (cookie: string) => (await ctx.app.inject({ url: "/api/me", headers: { cookie } })).json();
const verifiedInDb = async (email: string) =>
  (await ctx.database.db.select().from(users).where(eq(users.email, email)))[0]?.emailVerified;

/** Signs up through the API as the registration page does, from `callbackURL`. */
async function signUpFrom(callbackURL?: string, email = uniqueEmail("verify")) {
  const res = await ctx.app.inject({
    method: "POST",
    url: "/api/auth/sign-up/email",
    headers: { origin: ORIGIN },
    payload: { name: "Vera Verify", email, password: "Passw0rd!", phone: "5550123", callbackURL },
  });
  return { res, email, cookie: cookieHeader(res.headers["set-cookie"]) };
}

const resend = (cookie: string | undefined, callbackURL?: string) =>
  fromShop(ctx.app, "POST", "/api/auth/send-verification-email", cookie, callbackURL ? { callbackURL } : {});

describe("booking needs a verified email", () => {
  it("refuses an unverified account's booking (403, email-not-verified); the mailed link verifies it and leads back to the product page, where it books", async () => {
    const productId = await stockedProduct(ctx.database.db, 100);
    const page = `/products/${productId}`;
    const { res, email, cookie } = await signUpFrom(page);
    expect(res.statusCode).toBe(200);
    expect((await me(cookie)).emailVerified).toBe(false);

    const refused = await book(cookie, productId);
    expect(refused.statusCode).toBe(403);
    expect(refused.headers["content-type"]).toContain("application/problem+json");
    expect(refused.json()).toMatchObject({
      code: "email-not-verified",
      detail: orderMessages.emailNotVerified,
    });

    // The link, followed in another browser (no cookie): verified, signed in, and back on the page.
    const followed = await followVerificationLink(ctx.app, mailer, email);
    expect(followed.statusCode).toBe(302);
    expect(followed.headers.location).toBe(page);
    expect(await verifiedInDb(email)).toBe(true);
    const newSession = cookieHeader(followed.headers["set-cookie"]);
    expect((await me(newSession)).email).toBe(email);

    // The first browser's session reads the account afresh: it books now, as the new one does.
    expect((await me(cookie)).emailVerified).toBe(true);
    expect((await book(cookie, productId)).statusCode).toBe(201);
    expect((await book(newSession, productId)).statusCode).toBe(201);
  });

  it("never leads to another site: a sign-up or resend naming one is refused, and a crafted link goes home", async () => {
    for (const callbackURL of [
      "https://evil.example/",
      "//evil.example/x",
      "/\\evil.example",
      "/\t/evil.example",
      "javascript:alert(1)",
      "products",
    ]) {
      const { res } = await signUpFrom(callbackURL);
      expect(res.statusCode, callbackURL).toBe(400);
      expect(res.json().errors[0]).toMatchObject({
        path: "callbackURL",
        message: accountMessages.callbackInvalid,
      });
    }
    const { email, cookie } = await signUpFrom("/orders");
    expect((await resend(cookie, "https://evil.example/")).statusCode).toBe(400);
    await expect.poll(() => verificationLinkIn(mailer.sent, email)).toBeDefined();
    const link = new URL(verificationLinkIn(mailer.sent, email) ?? "", ORIGIN);
    expect(link.searchParams.get("callbackURL")).toBe("/orders");
    for (const evil of ["https://evil.example/", "//evil.example", "/\\evil.example"]) {
      link.searchParams.set("callbackURL", evil);
      const res = await ctx.app.inject({ url: `${link.pathname}${link.search}` });
      expect(res.statusCode, evil).toBe(302);
      expect(res.headers.location, evil).toBe("/");
    }
    // A forged token verifies nothing, and the customer is sent back with the reason.
    const forged = await ctx.app.inject({ url: "/api/auth/verify-email?token=forged&callbackURL=%2Forders" });
    expect(forged.statusCode).toBe(302);
    expect(forged.headers.location).toBe("/orders?error=INVALID_TOKEN");
  });

  it("resends the link to the signed-in customer's own address, up to AUTH_MAIL_LIMIT_PER_HOUR mails an hour with the sign-up's", async () => {
    const { email, cookie } = await signUpFrom("/");
    await expect.poll(() => mailer.sent.filter((m) => m.to === email).length).toBe(1);
    // Without a session there is nobody to send it to.
    expect((await resend(undefined, "/")).statusCode).toBe(401);
    const cap = ctx.config.authMailLimitPerHour;
    for (let n = 2; n <= cap; n++) {
      const res = await resend(cookie, "/products");
      expect(res.statusCode).toBe(200);
      await expect.poll(() => mailer.sent.filter((m) => m.to === email).length).toBe(n);
    }
    const capped = await resend(cookie, "/products");
    expect(capped.statusCode).toBe(429);
    expect(Number(capped.headers["retry-after"])).toBeGreaterThan(60);
    expect(capped.json().detail).toMatch(/several times within the hour/);
    expect(mailer.sent.filter((m) => m.to === email)).toHaveLength(cap);
    // A verified customer gets no more links.
    await followVerificationLink(ctx.app, mailer, email, cookie);
    expect((await resend(cookie)).statusCode).toBe(409);
  });

  it("counts a followed password reset or admin link as proof of the address", async () => {
    const customer = await signUp(ctx.app, {}, { verified: false });
    expect(await verifiedInDb(customer.email)).toBe(false);
    await sendAdminLink(ctx.database.db, mailer, ctx.config, customer);
    const mail = mailer.sent.findLast((m) => m.to === customer.email && m.subject.includes("admin"));
    const token = new URL(mail?.text.match(/https?:\/\/\S+/)?.[0] ?? "http://x").searchParams.get("token");
    const reset = await fromShop(ctx.app, "POST", "/api/auth/reset-password", undefined, {
      token,
      newPassword: "N3wPassword",
    });
    expect(reset.statusCode).toBe(200);
    expect(await verifiedInDb(customer.email)).toBe(true);
  });

  it("makes the demo accounts verified, without mailing them", async () => {
    const before = mailer.sent.length;
    await setUpAccounts(ctx.database.db, ctx.app.auth, { ...ctx.config, demoAccounts: true }, () => {});
    for (const account of DEMO_ACCOUNTS) expect(await verifiedInDb(account.email), account.email).toBe(true);
    expect(mailer.sent.slice(before).filter((m) => m.subject.includes("Verify"))).toEqual([]);
  });
});
