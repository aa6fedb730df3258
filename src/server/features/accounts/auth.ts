import { passkey } from "@better-auth/passkey";
import { betterAuth } from "better-auth";
import { drizzleAdapter } from "better-auth/adapters/drizzle";
import { genericOAuth, twoFactor } from "better-auth/plugins";
import { eq } from "drizzle-orm";
import { accountMessages } from "../../../shared/messages/accounts.js";
import type { Config } from "../../config.js";
import type { Db } from "../../db/client.js";
import { accounts, passkeys, sessions, twoFactors, users, verifications } from "../../db/schema/index.js";
import { framedMailHtml } from "../../lib/mail-frame.js";
import type { Mailer } from "../../lib/mailer.js";
import type { SessionUser } from "../../plugins/session.js";
import { completeAdminLink, isListedAdmin, sendAdminLink } from "./admin-link.js";
import { endResetLinks } from "./service.js";
import { touchSession } from "./sessions.js";

export const AUTH_BASE_PATH = "/api/auth";
export const GOOGLE_PROVIDER_ID = "google";
const SESSION_COOKIE_PREFIX = "gearhouse";

function resetMail(url: string) {
  return {
    subject: "Reset your Gearhouse password",
    text: `Someone asked to reset the password of your Gearhouse account.\n\nSet a new password within one hour here:\n${url}\n\nIf it was not you, ignore this message: your password stays as it is.`,
    html: framedMailHtml(
      `<p>Someone asked to reset the password of your Gearhouse account.</p><p><a href="${url}">Set a new password</a> within one hour.</p><p>If it was not you, ignore this message: your password stays as it is.</p>`,
    ),
  };
}

/** To the owner of an email someone tried to sign up with again; sign-up itself answers as for a new one. */
export function accountExistsMail(publicUrl: string) {
  const signIn = `${publicUrl}/login`;
  const reset = `${publicUrl}/passwordReset`;
  return {
    subject: "Someone tried to create a Gearhouse account with your email",
    text: `Someone tried to create a Gearhouse account with this email. If it was you, sign in or reset your password:\n\nSign in: ${signIn}\nReset your password: ${reset}\n\nIf it was not you, ignore this message: your account stays as it is.`,
    html: framedMailHtml(
      `<p>Someone tried to create a Gearhouse account with this email. If it was you, sign in or reset your password:</p><p><a href="${signIn}">Sign in</a> · <a href="${reset}">Reset your password</a></p><p>If it was not you, ignore this message: your account stays as it is.</p>`,
    ),
  };
}

/**
 * To the account's address once its password changed (by the signed-in customer, in Profile): the
 * owner learns of a change they did not make, and where to take the account back.
 */
export function passwordChangedMail(publicUrl: string, at: Date, othersEnded: boolean) {
  const m = accountMessages.passwordChangedMail;
  const reset = `${publicUrl}/passwordReset`;
  const when = `${at.toISOString().slice(0, 16).replace("T", " ")} UTC`;
  const lines = [m.lead(when), ...(othersEnded ? [m.othersEnded] : [])];
  return {
    subject: m.subject,
    text: `${lines.join(" ")}\n\n${m.notYou}\n${reset}`,
    html: framedMailHtml(`<p>${lines.join(" ")}</p><p>${m.notYou} <a href="${reset}">${m.reset}</a></p>`),
  };
}

function verifyMail(url: string) {
  return {
    subject: "Verify your Gearhouse email",
    text: `Welcome to Gearhouse. To book orders, confirm that this address is yours within one hour here:\n${url}\n\nThe link brings you back to the page you were on. If you did not create a Gearhouse account, ignore this message.`,
    html: framedMailHtml(
      `<p>Welcome to Gearhouse. To book orders, <a href="${url}">confirm that this address is yours</a> within one hour.</p><p>The link brings you back to the page you were on. If you did not create a Gearhouse account, ignore this message.</p>`,
    ),
  };
}

/** better-auth, on the shop's own tables: email + password, Google through OpenID Connect, password reset. */
type Log = Record<"error" | "warn" | "info" | "debug", (obj: unknown, msg?: string) => void>;

export function createAuth(config: Config, db: Db, mailer: Mailer, log: Log) {
  const origin = new URL(config.publicUrl).origin;
  return betterAuth({
    appName: "Gearhouse",
    baseURL: config.publicUrl,
    basePath: AUTH_BASE_PATH,
    secret: config.authSecret,
    logger: {
      log: (level, message, ...args) => {
        log[level]({ source: "better-auth", ...(args.length ? { args } : {}) }, message);
      },
    },
    trustedOrigins: [origin],
    // An OAuth failure that cannot be sent to the client's errorCallbackURL (no or a bad state)
    // lands on the login page, which says Google sign-in failed; better-auth's own error page is
    // closed (GET endpoints in auth-routes.ts).
    onAPIError: { errorURL: `${config.publicUrl}/login` },
    database: drizzleAdapter(db, {
      provider: "pg",
      schema: {
        user: users,
        session: sessions,
        account: accounts,
        verification: verifications,
        twoFactor: twoFactors,
        passkey: passkeys,
      },
    }),
    user: {
      additionalFields: {
        phone: { type: "string", required: false, defaultValue: "", input: true },
        // Never accepted from a request: set by an admin, or once an ADMIN_EMAILS address is proved (admin-link.ts).
        role: { type: "string", required: false, defaultValue: "user", input: false },
      },
    },
    // Booking needs a verified address (docs/product.md): the link is mailed at sign-up and on a
    // signed-in customer's request (auth-routes.ts caps both per address), and signs in whoever
    // follows it, back on the page they came from. The token is better-auth's signed one (an
    // hour), never stored. The shop's own sign-ups (demo seed) have no request and get no mail:
    // their caller marks them verified.
    emailVerification: {
      sendOnSignUp: true,
      autoSignInAfterVerification: true,
      expiresIn: 60 * 60,
      sendVerificationEmail: async ({ user, url }, request) => {
        if (!request) return;
        // Not awaited, like the reset mail: the answer must not wait for the mail server.
        mailer
          .send({ to: user.email, ...verifyMail(url) })
          .catch((error: unknown) => log.error({ err: error }, "verification mail failed"));
      },
    },
    emailAndPassword: {
      enabled: true,
      autoSignIn: true,
      minPasswordLength: 8,
      maxPasswordLength: 20,
      resetPasswordTokenExpiresIn: 60 * 60,
      revokeSessionsOnPasswordReset: true,
      // A reset ends the account's other reset links (better-auth consumes only the one used). It
      // proves the address too: the email counts as verified, and an account with a pending admin
      // link, or listed in ADMIN_EMAILS, gets role admin now.
      onPasswordReset: async ({ user }) => {
        await endResetLinks(db, { userId: user.id });
        await db.update(users).set({ emailVerified: true }).where(eq(users.id, user.id));
        if (await completeAdminLink(db, config, user))
          log.info({ userId: user.id }, "role admin given: the address was proved by a followed link");
      },
      // Asked only under the address's mail cap: over it, auth-routes.ts answers without better-auth.
      sendResetPassword: async ({ user, token }) => {
        const url = `${config.publicUrl}/passwordReset?token=${encodeURIComponent(token)}`;
        // Not awaited: the answer must not take longer for an existing account than for a missing one.
        mailer
          .send({ to: user.email, ...resetMail(url) })
          .catch((error: unknown) => log.error({ err: error }, "reset mail failed"));
      },
    },
    account: {
      accountLinking: {
        enabled: true,
        // A Google account joins an existing account only when Google says the email is verified.
        trustedProviders: [],
        requireLocalEmailVerified: false,
      },
    },
    session: {
      expiresIn: 60 * 60 * 24 * 7,
      updateAge: 60 * 60 * 24,
      // No cookie cache: a signed-out or revoked session is refused at once.
      cookieCache: { enabled: false },
      // Written by the shop only (second-factor.ts), read with every session.
      additionalFields: { secondFactorAt: { type: "date", required: false, input: false } },
    },
    // Rate limiting is the shop's own (shared by every instance, keyed by the socket address).
    rateLimit: { enabled: false },
    advanced: {
      cookiePrefix: SESSION_COOKIE_PREFIX,
      useSecureCookies: config.secureCookies,
      defaultCookieAttributes: { httpOnly: true, sameSite: "lax", secure: config.secureCookies },
      database: { generateId: () => crypto.randomUUID() },
    },
    databaseHooks: {
      user: {
        create: {
          // An ADMIN_EMAILS address is admin at once only when Google vouches for it on an account
          // Google creates (no password anyone else could know); a sign-up with a password gets a
          // link to prove it instead.
          before: async (user) => ({
            data: {
              ...user,
              email: user.email.toLowerCase(),
              role: isListedAdmin(config, user.email) && user.emailVerified === true ? "admin" : "user",
            },
          }),
          after: async (user) => {
            const created = user as typeof user & { role?: string };
            if (!isListedAdmin(config, created.email) || created.role === "admin") return;
            const { mailed } = await sendAdminLink(db, mailer, config, created);
            mailed.catch((error: unknown) => log.error({ err: error }, "admin link mail failed"));
          },
        },
      },
    },
    plugins: [
      // An authenticator app (TOTP, 6 digits, 30 s, one step either side) with ten single-use
      // backup codes, encrypted with the auth secret. A sign-in by password of an account that has
      // one answers { twoFactorRedirect } and a short-lived cookie instead of a session; ten wrong
      // codes in a row lock that step for 15 minutes (better-auth's own lockout), and the shop
      // adds its limit per account and refuses a code used once already (second-factor.ts). No
      // device is ever trusted to skip it: the shop's endpoints never pass trustDevice on.
      twoFactor({
        issuer: "Gearhouse",
        backupCodeOptions: { amount: 10, length: 10 },
        twoFactorCookieMaxAge: 10 * 60,
      }),
      // Passkeys (WebAuthn) for the shop's own origin: a second factor, and a way in alone.
      passkey({ rpID: new URL(config.publicUrl).hostname, rpName: "Gearhouse", origin }),
      ...(config.google
        ? [
            genericOAuth({
              config: [
                {
                  providerId: GOOGLE_PROVIDER_ID,
                  clientId: config.google.clientId,
                  clientSecret: config.google.clientSecret,
                  discoveryUrl: `${config.google.issuer.replace(/\/$/, "")}/.well-known/openid-configuration`,
                  scopes: ["openid", "email", "profile"],
                  pkce: true,
                  mapProfileToUser: (profile) => ({
                    name:
                      typeof profile.name === "string" && profile.name
                        ? profile.name
                        : (profile.email ?? "").split("@")[0],
                  }),
                },
              ],
            }),
          ]
        : []),
    ],
  });
}

export type Auth = ReturnType<typeof createAuth>;

declare module "fastify" {
  interface FastifyInstance {
    auth: Auth;
  }
}

/** The user whose better-auth session these cookies carry, or null (plugins/session.ts asks). */
export async function readSessionUser(auth: Auth, cookie: string, db: Db): Promise<SessionUser | null> {
  const session = await auth.api.getSession({ headers: new Headers({ cookie }) });
  if (!session) return null;
  await touchSession(db, session.session.id, session.session.updatedAt);
  const u = session.user as typeof session.user & {
    phone?: string;
    role?: string;
    twoFactorEnabled?: boolean;
  };
  const factorAt = (session.session as { secondFactorAt?: Date | string | null }).secondFactorAt;
  return {
    id: u.id,
    name: u.name,
    email: u.email,
    phone: u.phone ?? "",
    role: u.role === "admin" ? "admin" : "user",
    emailVerified: u.emailVerified === true,
    sessionId: session.session.id,
    twoFactorEnabled: u.twoFactorEnabled === true,
    secondFactorAt: factorAt ? new Date(factorAt) : null,
  };
}
