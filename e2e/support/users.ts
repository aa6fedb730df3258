import { type APIRequestContext, expect, type Page } from "@playwright/test";
import { E2E } from "./env.js";

let created = 0;

/** A unique email for this worker and moment, so tests never share an account. */
export function uniqueEmail(tag: string): string {
  created += 1;
  return `${tag}.${process.pid}.${created}.${Date.now()}@example.com`;
}

export type Customer = { name: string; email: string; password: string };

/** Signs up a new customer through the API in the page's browser context (the session cookie is shared). */
export async function signUpCustomer(page: Page, tag: string, name = "Journey Tester"): Promise<Customer> {
  const customer = { name, email: uniqueEmail(tag), password: "Passw0rd!" };
  const response = await page.request.post("/api/auth/sign-up/email", {
    headers: { origin: E2E.baseURL },
    data: { ...customer, phone: "+1 555 0142" },
  });
  expect(response.status()).toBe(200);
  return customer;
}

/**
 * Signs up a customer in its own request context (its own cookies), so the page can stay signed in
 * as the admin while the customer acts through the API.
 */
export async function customerVia(request: APIRequestContext, tag: string): Promise<Customer> {
  const customer = {
    name: `${tag} ${Date.now()}`,
    email: uniqueEmail(tag.toLowerCase()),
    password: "Passw0rd!",
  };
  const response = await request.post("/api/auth/sign-up/email", {
    headers: { origin: E2E.baseURL },
    data: { ...customer, phone: "+1 555 0142" },
  });
  expect(response.status()).toBe(200);
  return customer;
}

/** The demo admin the e2e shop seeds (DEMO_ACCOUNTS in src/server/features/accounts/setup.ts). */
export const DEMO_ADMIN = { name: "Gearhouse Admin", email: "admin@gearhouse.local", password: "Admin123!" };

/**
 * Signs the page's browser context in as the demo admin. (An ADMIN_EMAILS address becomes admin
 * only through the link mailed to it: e2e/accounts.spec.ts follows one.)
 */
export async function signInAsAdmin(page: Page): Promise<Customer> {
  const signIn = await page.request.post("/api/auth/sign-in/email", {
    headers: { origin: E2E.baseURL },
    data: { email: DEMO_ADMIN.email, password: DEMO_ADMIN.password },
  });
  expect(signIn.status()).toBe(200);
  const me = await page.request.get("/api/me");
  expect(await me.json()).toMatchObject({ email: DEMO_ADMIN.email, role: "admin" });
  return DEMO_ADMIN;
}
