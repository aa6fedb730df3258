import { expect, type Page } from "@playwright/test";
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

const ADMIN_PASSWORD = "Adm1nPassw0rd";

/**
 * Signs the page's browser context in as E2E.adminEmail, which ADMIN_EMAILS makes an admin on
 * sign-up. Whichever journey comes first creates the account; the others sign in to it.
 */
export async function signInAsAdmin(page: Page): Promise<Customer> {
  const admin = { name: "E2E Admin", email: E2E.adminEmail, password: ADMIN_PASSWORD };
  const headers = { origin: E2E.baseURL };
  const signUp = await page.request.post("/api/auth/sign-up/email", {
    headers,
    data: { ...admin, phone: "+1 555 0100" },
  });
  // Sign-up answers a known email alike but signs no one in: then the account exists already. Two
  // journeys signing up at the same instant race for the address, and the loser gets a 422.
  expect([200, 422]).toContain(signUp.status());
  if ((await page.request.get("/api/me")).status() !== 200) {
    const signIn = await page.request.post("/api/auth/sign-in/email", {
      headers,
      data: { email: admin.email, password: admin.password },
    });
    expect(signIn.status()).toBe(200);
  }
  const me = await page.request.get("/api/me");
  expect(await me.json()).toMatchObject({ email: admin.email, role: "admin" });
  return admin;
}
