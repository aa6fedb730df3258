import { type APIRequestContext, type Browser, type BrowserContext, expect } from "@playwright/test";
import type { Product, ProductInput } from "../../src/shared/catalog.js";
import type { Order, OrderPage } from "../../src/shared/orders.js";
import type { UserPage } from "../../src/shared/users.js";
import { E2E } from "./env.js";
import { waitForMail } from "./mail.js";

/**
 * The browser tests' one set of test-data helpers: unique names, and the shop's API used the way a
 * customer or an admin uses it. Each helper makes or removes one thing and keeps no record of it:
 * the fixtures in ./fixtures.ts call them and remove in teardown what a test made.
 */

/** The header every state-changing API call carries (sign-in checks the origin). */
export const origin = { origin: E2E.baseURL };

let made = 0;

/**
 * Digits no other call returns, in this run or another: the time, the worker's process id and a
 * count, each of a fixed width, so no suffix is part of another (a search for one finds it alone).
 * Digits only, so a name never matches a storefront search for a word.
 */
export function uniqueSuffix(): string {
  made += 1;
  return `${Date.now()}${String(process.pid).padStart(7, "0")}${String(made).padStart(4, "0")}`;
}

/** A unique address at example.com, starting with `tag` so a failing test's accounts are easy to read. */
export function uniqueEmail(tag: string): string {
  const local = tag.toLowerCase().replace(/[^a-z0-9]+/g, ".");
  return `${local}.${uniqueSuffix()}@example.com`;
}

/** "`label` <digits>": a unique name for a person, product or text. */
export function uniqueName(label: string): string {
  return `${label} ${uniqueSuffix()}`;
}

/** One word, `label` and digits, in no other journey's names: searching for it finds this journey's data. */
export function uniqueTag(label: string): string {
  return `${label}${uniqueSuffix()}`;
}

export type Credentials = { name: string; email: string; password: string };
export type Account = Credentials & { id: string };

/** The password of every account the tests sign up. */
export const PASSWORD = "Passw0rd!";

/** The demo accounts the e2e shop seeds (DEMO_ACCOUNTS in src/server/features/accounts/setup.ts). */
export const DEMO_ADMIN = { name: "Gearhouse Admin", email: "admin@gearhouse.local", password: "Admin123!" };
export const DEMO_CUSTOMER = { email: "customer@gearhouse.local", password: "Customer123!" };

/** The email verification link in a mail's text (the first), if it has one. */
export function verificationLinkIn(text: string): string | undefined {
  return text.match(/https?:\/\/[^\s"<>]+\/api\/auth\/verify-email[^\s"<>]*/)?.[0];
}

/**
 * Follows the verification link the shop mailed to `email` (through the local mail server), as
 * the request context's browser would; the shop then lets the account book.
 */
async function verifyEmail(request: APIRequestContext, email: string): Promise<void> {
  const mail = await waitForMail(email, 60_000, (text) => verificationLinkIn(text) !== undefined);
  const link = new URL(verificationLinkIn(mail) ?? "");
  const response = await request.get(`${link.pathname}${link.search}`, { maxRedirects: 0 });
  expect(response.status()).toBe(302);
}

/**
 * Signs up a customer through the API; the request context (a page's `page.request` shares the
 * page's cookies) is signed in as them afterwards. The account's email is verified through the
 * link mailed to it, unless `verified` is false (booking needs it: e2e/email-verification.spec.ts
 * follows it in the browser).
 */
export async function signUp(
  request: APIRequestContext,
  credentials: Credentials,
  { verified = true }: { verified?: boolean } = {},
): Promise<Account> {
  const response = await request.post("/api/auth/sign-up/email", {
    headers: origin,
    data: { ...credentials, phone: "+1 555 0142" },
  });
  expect(response.status()).toBe(200);
  if (verified) await verifyEmail(request, credentials.email);
  const me = await request.get("/api/me");
  expect(me.status()).toBe(200);
  const { id, email } = (await me.json()) as { id: string; email: string };
  expect(email).toBe(credentials.email);
  return { ...credentials, id };
}

/** Signs the request context in with an email and password. */
export async function signIn(request: APIRequestContext, account: { email: string; password: string }) {
  const response = await request.post("/api/auth/sign-in/email", {
    headers: origin,
    data: { email: account.email, password: account.password },
  });
  expect(response.status()).toBe(200);
}

/**
 * The account signed in from a second browser (a context of its own, to close when done): where
 * the other sessions a change ends are seen to end.
 */
export async function signedInElsewhere(
  browser: Browser,
  account: { email: string; password: string },
): Promise<BrowserContext> {
  const elsewhere = await browser.newContext({ baseURL: E2E.baseURL });
  await signIn(elsewhere.request, account);
  expect((await elsewhere.request.get("/api/me")).status()).toBe(200);
  return elsewhere;
}

/**
 * Signs the request context in as the demo admin. (An ADMIN_EMAILS address becomes admin only
 * through the link mailed to it: e2e/accounts.spec.ts follows one.)
 */
export async function signInAsAdmin(request: APIRequestContext): Promise<typeof DEMO_ADMIN> {
  await signIn(request, DEMO_ADMIN);
  const me = await request.get("/api/me");
  expect(await me.json()).toMatchObject({ email: DEMO_ADMIN.email, role: "admin" });
  return DEMO_ADMIN;
}

/** Adds a product, as the admin signed in on `admin`. */
export async function addProduct(admin: APIRequestContext, product: ProductInput): Promise<Product> {
  const response = await admin.post("/api/products", { headers: origin, data: product });
  expect(response.status()).toBe(201);
  return (await response.json()) as Product;
}

/** Books `quantity` units, as the request context's signed-in customer. */
export async function placeOrder(
  request: APIRequestContext,
  productId: string,
  quantity = 10,
): Promise<Order> {
  const response = await request.post("/api/orders", {
    headers: origin,
    data: { productId, quantity, address: "9 Dock Street, Austin", phone: "5550142" },
  });
  expect(response.status()).toBe(201);
  return (await response.json()) as Order;
}

/** Pays through the sandbox provider as the customer would from the payment page. */
export async function payOrder(request: APIRequestContext, order: Order, customer: Credentials) {
  const intent = await request.post(`/api/orders/${order.id}/payment-intent`, { headers: origin });
  expect(intent.status()).toBe(200);
  const { clientSecret } = (await intent.json()) as { clientSecret: string };
  const confirm = await request.post("/api/payments/sandbox/confirm", {
    headers: origin,
    data: {
      clientSecret,
      card: { number: "4242424242424242", expMonth: 12, expYear: 2034, cvc: "123" },
      billing: { name: customer.name, email: customer.email },
    },
  });
  expect(confirm.status()).toBe(200);
  const { paymentIntent } = (await confirm.json()) as { paymentIntent: { id: string } };
  const paid = await request.post(`/api/orders/${order.id}/pay`, {
    headers: origin,
    data: { transactionId: paymentIntent.id },
  });
  expect(paid.status()).toBe(200);
}

/**
 * Removes an order, as the admin signed in on `admin`, and returns its stock. An order already gone
 * is fine; a paid one the shop keeps as a record (409), and so does this.
 */
export async function removeOrder(admin: APIRequestContext, id: string): Promise<void> {
  const response = await admin.delete(`/api/orders/${id}`, { headers: origin });
  expect([204, 404, 409], `removing order ${id}`).toContain(response.status());
}

/** The unpaid orders booked by `email`, every page of them, as the admin signed in on `admin` sees them. */
export async function unpaidOrdersOf(admin: APIRequestContext, email: string): Promise<Order[]> {
  const found: Order[] = [];
  let cursor: string | null = null;
  do {
    const query = new URLSearchParams({ search: email, status: "pending", limit: "100" });
    if (cursor) query.set("cursor", cursor);
    const response = await admin.get(`/api/orders?${query}`);
    expect(response.status()).toBe(200);
    const page = (await response.json()) as OrderPage;
    found.push(...page.items.filter((order) => order.email.toLowerCase() === email.toLowerCase()));
    cursor = page.nextCursor;
  } while (cursor);
  return found;
}

/** The id of the account with `email`, if there is one, as the admin signed in on `admin` finds it. */
export async function userIdOf(admin: APIRequestContext, email: string): Promise<string | undefined> {
  const response = await admin.get(`/api/users?${new URLSearchParams({ search: email, limit: "100" })}`);
  expect(response.status()).toBe(200);
  const { items } = (await response.json()) as UserPage;
  return items.find((user) => user.email.toLowerCase() === email.toLowerCase())?.id;
}

/**
 * Removes an account, as the admin signed in on `admin`: its sessions and profile go with it; its
 * orders and reviews stay as the shop's records, no longer linked to it. One already gone is fine.
 */
export async function removeUser(admin: APIRequestContext, id: string): Promise<void> {
  const response = await admin.delete(`/api/users/${id}`, { headers: origin });
  expect([204, 404], `removing user ${id}`).toContain(response.status());
}
