import { makeSignature } from "better-auth/crypto";
import { eq } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { users } from "../db/schema/index.js";
import type { Mail, Mailer } from "../lib/mailer.js";
import { until } from "./until.js";

export const ORIGIN = "http://localhost:3000";

/** Collects `name=value` pairs from Set-Cookie headers into a Cookie header. */
export function cookieHeader(setCookie: string | string[] | undefined): string {
  const list = Array.isArray(setCookie) ? setCookie : setCookie ? [setCookie] : [];
  return list
    .map((c) => c.split(";")[0] ?? "")
    .filter((c) => c && !c.endsWith("="))
    .join("; ");
}

/** A request as the shop's own page sends it: from its origin, with the session cookie when signed in. */
export function fromShop(
  app: FastifyInstance,
  method: "POST" | "PUT" | "PATCH" | "DELETE",
  url: string,
  cookie?: string,
  payload?: unknown,
) {
  return app.inject({
    method,
    url,
    headers: { origin: ORIGIN, ...(cookie ? { cookie } : {}) },
    ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
  });
}

let counter = 0;
export function uniqueEmail(prefix = "user"): string {
  counter += 1;
  return `${prefix}.${process.pid}.${counter}.${Date.now()}@example.com`;
}

export interface TestUser {
  email: string;
  password: string;
  cookie: string;
  id: string;
}

/**
 * Signs up a customer with a session. Booking needs a verified email, so the account is marked
 * verified in the database, as its followed link would (`verified: false` leaves it as sign-up
 * does); security/email-verification.test.ts follows the real links.
 */
export async function signUp(
  app: FastifyInstance,
  overrides: Partial<{ name: string; email: string; password: string; phone: string }> = {},
  { verified = true }: { verified?: boolean } = {},
): Promise<TestUser> {
  const body = {
    name: "Test User",
    email: uniqueEmail(),
    password: "Passw0rd!",
    phone: "+1 555 0199",
    ...overrides,
  };
  const res = await app.inject({
    method: "POST",
    url: "/api/auth/sign-up/email",
    headers: { origin: ORIGIN },
    payload: body,
  });
  if (res.statusCode !== 200) throw new Error(`sign-up failed: ${res.statusCode} ${res.body}`);
  // Sign-up answers {ok: true} alike for a new and a known email; the session tells who this is.
  const cookie = cookieHeader(res.headers["set-cookie"]);
  const me = await app.inject({ method: "GET", url: "/api/me", headers: { cookie } });
  if (me.statusCode !== 200) throw new Error(`sign-up gave no session (email taken?): ${me.statusCode}`);
  const id: string = me.json().id;
  if (verified) await app.db.update(users).set({ emailVerified: true }).where(eq(users.id, id));
  return { email: body.email.toLowerCase(), password: body.password, cookie, id };
}

/** The newest verification link mailed to `email`, as a path under the shop (`/api/auth/verify-email?…`). */
export function verificationLinkIn(sent: readonly Mail[], email: string): string | undefined {
  const mail = sent.findLast((m) => m.to === email.toLowerCase() && m.subject.includes("Verify"));
  const link = mail?.text.match(/https?:\/\/\S+\/api\/auth\/verify-email\S*/)?.[0];
  if (!link) return undefined;
  const url = new URL(link);
  return `${url.pathname}${url.search}`;
}

/**
 * Follows the verification link mailed to `email` (waiting for the mail, which is sent in the
 * background), as the customer's browser would, with its cookie if given; the answer is the
 * redirect back to the page the link names.
 */
export async function followVerificationLink(
  app: FastifyInstance,
  mailer: { sent: Mail[] },
  email: string,
  cookie?: string,
) {
  await until(`a verification mail to ${email}`, () => verificationLinkIn(mailer.sent, email) !== undefined);
  const path = verificationLinkIn(mailer.sent, email) ?? "";
  return app.inject({ method: "GET", url: path, headers: cookie ? { cookie } : {} });
}

/**
 * Signs up an account and gives it role admin in the database, as a followed admin link does
 * (features/accounts/admin-link.ts; security/admin-by-address.test.ts follows real links).
 */
export async function signUpAdmin(
  app: FastifyInstance,
  overrides: Parameters<typeof signUp>[1] = {},
): Promise<TestUser> {
  const user = await signUp(app, overrides);
  await app.db.update(users).set({ role: "admin" }).where(eq(users.id, user.id));
  return user;
}

/**
 * A new session for the user, made the way sign-in makes one but without checking a password, for
 * tests that need many sessions fast (a password hash takes a tenth of a second on purpose).
 */
export async function newSession(app: FastifyInstance, userId: string): Promise<string> {
  const context = await app.auth.$context;
  const session = await context.internalAdapter.createSession(userId);
  const signed = `${session.token}.${await makeSignature(session.token, context.secret)}`;
  return `${context.authCookies.sessionToken.name}=${encodeURIComponent(signed)}`;
}

export async function signIn(
  app: FastifyInstance,
  email: string,
  password: string,
  headers: Record<string, string> = {},
) {
  return app.inject({
    method: "POST",
    url: "/api/auth/sign-in/email",
    headers: { origin: ORIGIN, ...headers },
    payload: { email, password },
  });
}

/** A mailer that keeps what it is asked to send, for tests that read the mail. */
export function memoryMailer(): Mailer & { sent: Mail[] } {
  const sent: Mail[] = [];
  return {
    sent,
    async send(mail) {
      sent.push(mail);
    },
  };
}
