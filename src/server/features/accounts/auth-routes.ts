import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { z } from "zod";
import {
  passwordSchema,
  phoneSchema,
  resetRequestSchema,
  signInSchema,
  signUpSchema,
} from "../../../shared/accounts.js";
import { accountMessages } from "../../../shared/messages/accounts.js";
import { secondFactorMessages } from "../../../shared/messages/second-factor.js";
import { problemCodes } from "../../../shared/problem-codes.js";
import {
  factorCodeSchema,
  passkeyNameSchema,
  webAuthnResponseSchema,
} from "../../../shared/second-factor.js";
import { claimRecipient } from "../../lib/mail-cap.js";
import type { Mailer } from "../../lib/mailer.js";
import {
  badRequest,
  conflict,
  ForeignError,
  fieldErrors,
  HttpProblem,
  notFound,
  type ProblemTable,
  serverFault,
  TooManyRequests,
  titleFor,
  unauthorized,
} from "../../lib/problem.js";
import { enforceRateLimit } from "../../lib/rate-limit.js";
import { provedRecently, type SessionUser, stepUpProblem } from "../../plugins/session.js";
import { actorOf, recordActivity } from "../activity/index.js";
import {
  AUTH_BASE_PATH,
  type Auth,
  accountExistsMail,
  GOOGLE_PROVIDER_ID,
  passwordChangedMail,
} from "./auth.js";
import {
  claimCode,
  dropSession,
  endSessionsBut,
  limitFactorTries,
  markProved,
  newSessionToken,
  passwordMatches,
  pendingSignInUser,
  releaseCode,
  removeApp,
  sessionOfToken,
  TWO_FACTOR_COOKIE,
} from "./second-factor.js";
import { accountByEmail, accountById, claimMail, endResetLinks, mailCapKey } from "./service.js";

export interface AuthRoutesOptions {
  auth: Auth;
  mailer: Mailer;
  /**
   * Attempts per address and window on sign-in, sign-up and reset requests, and on sign-ins and
   * password changes per account too.
   */
  rateLimit?: { max: number; windowSeconds: number };
}

const urlText = z.string().max(2000).optional();
const noFields = z.object({});

/**
 * Where a verification link brings the customer back: a path on the shop itself ("/products/…"),
 * never another site, whatever a request or a crafted link says ("//evil.example", "/\\evil",
 * "https://…" are refused). Only the path and query are kept, at most 500 characters.
 */
function isShopPath(value: string): boolean {
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);
    // Control characters, which a browser drops from a URL (so "/\t/evil.example" is "//evil.example").
    if (code < 0x20 || code === 0x7f) return false;
  }
  return value.length <= 500 && /^\/(?![/\\])[^\s\\]*$/.test(value);
}
const shopPath = z.string().max(500).refine(isShopPath, accountMessages.callbackInvalid);

/** The body a POST endpoint takes, and how its fields are named on the shop's forms. */
interface AuthBody {
  schema: z.ZodType;
  /** better-auth's name of a field → the form's, so a problem's errors land under the right input. */
  formNames?: Record<string, string>;
}

/** What the shop's steps need of the app: its database, limits, mailer and better-auth. */
interface Deps {
  app: FastifyInstance;
  auth: Auth;
  mailer: Mailer;
  /** Attempts per key and window (AUTH_RATE_LIMIT_PER_MINUTE, or the tests' own). */
  limit: { max: number; windowSeconds: number };
  /** Each account mail's own cap, and its recipient's across every kind of mail. */
  mailLimits: { perKind: number; perRecipient: number };
}

/** One request on its way to better-auth, as the steps see and change it. */
interface Call {
  deps: Deps;
  request: FastifyRequest;
  reply: FastifyReply;
  /** The URL better-auth gets (a step may change its query). */
  url: URL;
  /** The checked body better-auth gets (POST; a step may replace it). */
  body: unknown;
  /** The signed-in account, when a step looked it up. */
  user: SessionUser | null;
  /** Whose second factor the request proves (signed in, or half-way through a sign-in), when a step found it. */
  factorUserId: string | null;
  /** The password a factor's removal was confirmed with (checked), when it was not the factor itself. */
  removalPassword?: string;
}

/** A step before better-auth sees the request: throws a problem to refuse it, or changes the call. */
type Before = (call: Call) => Promise<void>;
/** How the call is answered, given the way to ask better-auth (the request as the steps left it). */
type Answer = (call: Call, askBetterAuth: () => Promise<Response>) => Promise<unknown>;
/** A step once better-auth answered, before its answer is forwarded. */
type After = (call: Call, response: Response) => Promise<void>;

/**
 * One better-auth endpoint the shop serves, with the shop's steps around it, in order: `limits`
 * (counted before the body is read, so a malformed guess counts too), the body's check, `before`
 * (on the checked body), then better-auth's answer, forwarded, after `after` (given that answer).
 * An endpoint with an `answer` of its own answers there instead, and has no `after`.
 */
interface Endpoint {
  method: "GET" | "POST";
  path: string;
  limits?: Before[];
  /** POST only: the body it takes; only the parsed body reaches better-auth. */
  body?: AuthBody;
  before?: Before[];
  answer?: Answer;
  after?: After[];
}

/** Counts an attempt under `key`; a 429 with `Retry-After` once the limit is reached. */
const limitAttempts = ({ deps }: Call, key: string, detail: string) =>
  enforceRateLimit(deps.app.db, key, deps.limit, detail);

/** Sign-in, sign-up and reset guesses, per client address. */
const limitByAddress: Before = (call) =>
  limitAttempts(call, `auth:${call.request.ip}`, accountMessages.rateLimited);

/** Like sign-in, per client address; and per account, however many addresses guess. */
const limitPasswordChanges: Before = async (call) => {
  const detail = accountMessages.changePasswordRateLimited;
  await limitAttempts(call, `change-password:${call.request.ip}`, detail);
  call.user = await call.request.currentUser();
  if (call.user) await limitAttempts(call, `change-password:user:${call.user.id}`, detail);
};

/**
 * Per account as well, whatever the addresses the guesses come from (issue 28, item 1). Keyed by
 * the address typed, account or not, so the 429 tells nobody who shops here; counted before the
 * password is checked, so once limited the right one is refused too.
 */
const limitSignInsOfAccount: Before = async (call) => {
  const { email } = call.body as z.output<typeof signInSchema>;
  await limitAttempts(call, `sign-in:account:${email}`, accountMessages.signInAccountRateLimited);
};

/**
 * An admin account's sign-in, or a failed one, goes into the activity log (issue 32, item 4).
 * better-auth has committed its session by now, so the entry follows it in a statement of its own.
 * A failure names no actor (nobody signed in), only the address typed; a customer's sign-ins are
 * not recorded.
 */
const recordAdminSignIn: After = async (call, response) => {
  const { email } = call.body as z.output<typeof signInSchema>;
  const account = await accountByEmail(call.deps.app.db, email);
  if (account?.role !== "admin") return;
  const ok = response.status < 400;
  // A correct password of an account with an app is half a sign-in: its second step records it.
  if (ok && (await twoFactorRedirect(response))) return;
  const who = ok ? { id: account.id, email: account.email } : null;
  await recordActivity(
    call.deps.app.db,
    { ...actorOf(call.request, who), email: account.email },
    {
      action: ok ? "admin.signed_in" : "admin.sign_in_failed",
      targetType: "user",
      targetId: account.id,
    },
  );
};

/** Whether a sign-in answer asks for the second step ({ twoFactorRedirect: true }). */
async function twoFactorRedirect(response: Response): Promise<boolean> {
  try {
    const body = (await response.clone().json()) as { twoFactorRedirect?: unknown };
    return body.twoFactorRedirect === true;
  } catch {
    return false;
  }
}

/** Who is signed in, if anyone (a passkey may sign in over a session, as a step-up does). */
const whoIsSignedIn: Before = async (call) => {
  call.user = await call.request.currentUser();
};

/** The request must be signed in (401 otherwise); the account is the call's. */
const signedIn: Before = async (call) => {
  call.user = await call.request.currentUser();
  if (!call.user) throw unauthorized();
  call.factorUserId = call.user.id;
};

/**
 * Whose second factor a code proves: the signed-in account's (a step-up, or an app's first code),
 * or the account whose sign-in waits for its second step (better-auth's short-lived cookie). A
 * code is counted against that account's limit (FACTOR_TRIES in 15 minutes, from any address),
 * before it is checked, so once limited a right code is refused too.
 */
const factorAccount: Before = async (call) => {
  const db = call.deps.app.db;
  call.user = await call.request.currentUser();
  call.factorUserId =
    call.user?.id ?? (await pendingSignInUser(db, call.request.headers.cookie, TWO_FACTOR_COOKIE));
  if (!call.factorUserId) throw unauthorized(secondFactorMessages.signInExpired);
  await limitFactorTries(db, call.factorUserId);
};

/** Password guesses on the factor endpoints count against the account's limit too. */
const limitFactorPasswords: Before = async (call) => {
  await signedIn(call);
  await limitFactorTries(call.deps.app.db, call.user?.id ?? "");
};

/** An app code is claimed before it is checked: a code used once is refused for its 90 seconds. */
const claimAppCode: Before = async (call) => {
  const { code } = call.body as { code: string };
  await claimCode(call.deps.app.db, call.factorUserId ?? "", code);
};

/** A wrong code gives its claim back (a typo does not burn the right code). */
const releaseWrongCode: After = async (call, response) => {
  if (response.ok) return;
  const { code } = call.body as { code: string };
  await releaseCode(call.deps.app.db, call.factorUserId ?? "", code);
};

/**
 * A proved factor marks the session: the new one better-auth made (a sign-in's second step, a
 * passkey sign-in, an app's first code) or the one in use (a step-up). A passkey used while signed
 * in to the same account replaces the session in use, as a step-up should. An admin's completed
 * sign-in goes on the record.
 */
const markFactorProved: After = async (call, response) => {
  if (!response.ok) return;
  const { app } = call.deps;
  const token = newSessionToken(response);
  if (!token) {
    if (call.user) await markProved(app.db, { id: call.user.sessionId });
    return;
  }
  const made = await markProved(app.db, { token });
  if (!made) return;
  if (call.user && call.user.id === made.userId && call.user.sessionId !== made.id)
    await dropSession(app.db, call.user.sessionId);
  if (!call.user) {
    const account = await accountById(app.db, made.userId);
    if (account?.role === "admin")
      await recordActivity(app.db, actorOf(call.request, account), {
        action: "admin.signed_in",
        targetType: "user",
        targetId: account.id,
        changes: { secondFactor: [null, call.url.pathname.includes("passkey") ? "passkey" : "code"] },
      });
  }
};

/** A factor added or removed goes on the record (every account's: they are security events). */
const recordFactor =
  (action: "user.factor_added" | "user.factor_removed", factor: "app" | "passkey"): After =>
  async (call, response) => {
    const user = call.user;
    if (!response.ok || !user) return;
    // An app's code from a signed-in account adds the app only the first time (later ones step up).
    if (action === "user.factor_added" && factor === "app" && user.twoFactorEnabled) return;
    await recordActivity(call.deps.app.db, actorOf(call.request, user), {
      action,
      targetType: "user",
      targetId: user.id,
      changes: { factor: action === "user.factor_added" ? [null, factor] : [factor, null] },
    });
  };

/** A factor removed signs the account's other sessions out (the one in use, or its successor, stays). */
const endOthersOnRemoval: After = async (call, response) => {
  const user = call.user;
  if (!response.ok || !user) return;
  const token = newSessionToken(response);
  const keep = token ? await sessionOfToken(call.deps.app.db, token) : null;
  await endSessionsBut(call.deps.app.db, user.id, keep?.id ?? user.sessionId);
};

/**
 * Removing a factor takes the password, or the second factor itself: without a password, the
 * session must have proved a factor in the last 10 minutes (403 step-up-required otherwise, which
 * the client answers by asking for one, then asks again).
 */
const passwordOrFactor: Before = async (call) => {
  await limitFactorPasswords(call);
  const user = call.user as SessionUser;
  const { password, ...rest } = call.body as { password?: string };
  if (password === undefined) {
    if (!provedRecently(user)) throw stepUpProblem();
    call.body = rest;
    return;
  }
  if (!(await passwordMatches(call.deps.app.db, call.deps.auth, user.id, password)))
    throw badRequest(secondFactorMessages.passwordInvalid, [
      { path: "password", message: secondFactorMessages.passwordInvalid },
    ]);
  call.removalPassword = password;
  call.body = rest;
};

/** The app's removal: by better-auth with the password it checks again, or by the shop after a step-up. */
const disableApp: Answer = async (call, askBetterAuth) => {
  const user = call.user as SessionUser;
  const { app } = call.deps;
  let response: Response;
  if (call.removalPassword !== undefined) {
    call.body = { password: call.removalPassword };
    response = await askBetterAuth();
  } else if (await removeApp(app.db, user.id)) response = Response.json({ status: true });
  else throw badRequest(secondFactorMessages.noApp);
  for (const step of [endOthersOnRemoval, recordFactor("user.factor_removed", "app")])
    await step(call, response);
  return forward(response, call.reply);
};

/**
 * A resend of the verification link: for the signed-in customer's own address (401 without a
 * session), under the address's mail cap (AUTH_MAIL_LIMIT_PER_HOUR, shared with the sign-up's
 * link): over it, a 429 that says when to ask again. The body better-auth gets names the
 * session's email.
 */
const verificationRequest: Before = async (call) => {
  const { app, mailLimits } = call.deps;
  const user = await call.request.currentUser();
  if (!user) throw unauthorized();
  if (user.emailVerified) throw conflict(accountMessages.alreadyVerified);
  const cap = { max: app.config.authMailLimitPerHour, windowSeconds: 60 * 60 };
  await enforceRateLimit(app.db, mailCapKey("verify", user.email), cap, (seconds) =>
    accountMessages.verifyMailCapped(Math.ceil(seconds / 60)),
  );
  // And against the address's cap across every kind of mail (lib/mail-cap.ts).
  const recipient = await claimRecipient(app.db, user.email, mailLimits.perRecipient);
  if (!recipient.allowed)
    throw new TooManyRequests(
      accountMessages.verifyMailCapped(Math.ceil(recipient.retryAfterSeconds / 60)),
      recipient.retryAfterSeconds,
    );
  call.body = { ...(call.body as object), email: user.email };
};

/** A verification link whose way back is not a path of the shop's brings the customer home. */
const keepCallbackOnShop: Before = async ({ url }) => {
  const back = url.searchParams.get("callbackURL");
  if (back !== null && !isShopPath(back)) url.searchParams.set("callbackURL", "/");
};

/** better-auth's codes for a sign-up whose email was taken after the shop looked. */
const ALREADY_EXISTS = new Set(["USER_ALREADY_EXISTS", "USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL"]);
/** Sign-up's one answer, for a new email and a known one alike. */
const SIGNED_UP = { ok: true } as const;

/**
 * Sign-up answers 200 {ok: true} whether or not the email has an account, so the form cannot tell
 * anyone who shops here. A new email gets its account and session; a known one no session, and
 * its owner a mail. Both paths hash the password with better-auth's own hasher, so the time taken
 * tells nothing either. (The session cookie still differs: hiding that too would need email
 * verification before the first sign-in, which docs/product.md does not have.)
 */
const signUpEmail: Answer = async ({ deps, body, reply }, askBetterAuth) => {
  const { app, auth, mailer, mailLimits } = deps;
  const input = body as z.output<typeof signUpSchema>;
  if (!(await accountByEmail(app.db, input.email))) {
    const response = await askBetterAuth();
    if (response.ok) {
      // The verification link went out with the account (auth.ts): it counts against the
      // address's cap, as each resend does. One statement, like the known email's below.
      await claimMail(app.db, "verify", input.email, mailLimits);
      for (const cookie of response.headers.getSetCookie()) reply.header("set-cookie", cookie);
      return reply.code(200).send(SIGNED_UP);
    }
    if (!ALREADY_EXISTS.has(await errorCode(response.clone()))) return forward(response, reply);
  }
  await (await auth.$context).password.hash(input.password);
  // The cap's one statement costs nothing beside the hash. The mail is not awaited, like the
  // reset mail: the answer must not wait for the mail server.
  if (await claimMail(app.db, "account-exists", input.email, mailLimits))
    mailer
      .send({ to: input.email, ...accountExistsMail(app.config.publicUrl) })
      .catch((error: unknown) => app.log.error({ err: error }, "account-exists mail failed"));
  return reply.code(200).send(SIGNED_UP);
};

/**
 * better-auth's answer to every reset request, whether or not the address has an account
 * (api/routes/password.mjs): the shop gives it itself when no mail may go out.
 */
const RESET_REQUESTED = {
  status: true,
  message: "If this email exists in our system, check your email for the reset link",
} as const;

/**
 * Under the address's mail cap, the new link ends the earlier ones and better-auth mails it: the
 * same two statements whether or not the address has an account, so neither the answer nor its
 * time tells. Over it, better-auth is not asked, so no link is made and none mailed; the earlier
 * links (already in the inbox) stay, and the answer is better-auth's own.
 */
const resetRequest: Answer = async ({ deps, body, reply }, askBetterAuth) => {
  const { email } = body as z.output<typeof resetRequestSchema>;
  if (!(await claimMail(deps.app.db, "reset", email, deps.mailLimits)))
    return forward(Response.json(RESET_REQUESTED), reply);
  await endResetLinks(deps.app.db, { email });
  return forward(await askBetterAuth(), reply);
};

/** A changed password ends every reset link of the account. */
const endResetLinksOfChanged: After = async ({ deps, user }, response) => {
  if (user && response.ok) await endResetLinks(deps.app.db, { userId: user.id });
};

/**
 * A changed password is told to the account's address (issue 34, item 1), so an owner whose
 * session someone else used learns of it. It always goes, counted against the address's hourly
 * cap like a receipt: only the account itself, with its current password and under
 * limitPasswordChanges, can cause it. Not awaited: the answer does not wait for the mail server.
 */
const mailPasswordChanged: After = async ({ deps, user, body }, response) => {
  if (!user || !response.ok) return;
  const { revokeOtherSessions } = body as { revokeOtherSessions: boolean };
  await claimRecipient(deps.app.db, user.email, deps.mailLimits.perRecipient, { always: true });
  deps.mailer
    .send({
      to: user.email,
      ...passwordChangedMail(deps.app.config.publicUrl, new Date(), revokeOtherSessions),
    })
    .catch((error: unknown) => deps.app.log.error({ err: error }, "password-changed mail failed"));
};

/** A POST endpoint: it always takes a body (an empty object at least). */
const post = (path: string, endpoint: Omit<Endpoint, "method" | "path"> & { body: AuthBody }): Endpoint => ({
  method: "POST",
  path,
  ...endpoint,
});

/**
 * Every better-auth endpoint the shop serves, each with its own steps. Only the parsed body
 * reaches better-auth, so fields the shop does not take (role, emailVerified, image, id…) never
 * do, and every text keeps the shop's own rules (a changed or reset password follows the sign-up
 * pattern, a name its 80 characters).
 *
 * Any other POST under /api/auth (delete-user, change-email, get-access-token, link-social…)
 * answers 404: the shop offers none of them. The GETs are Google's OAuth callback, where Google
 * sends the browser back, and verify-email, where the verification mail's link goes (its
 * callbackURL must be a path of the shop's: see isShopPath). Every other GET answers 404, among
 * them better-auth's error page (which shows text from its query string on the shop's origin,
 * next to a link to another site), get-session and list-sessions (the client asks /api/session),
 * reset-password/:token (the reset mail links to the shop's own page), delete-user/callback,
 * account-info, list-accounts and ok. OAuth failures are sent to the login page instead of that
 * error page (`onAPIError.errorURL` in auth.ts).
 */
const ENDPOINTS: Endpoint[] = [
  post("/sign-up/email", {
    limits: [limitByAddress],
    body: { schema: signUpSchema.extend({ callbackURL: shopPath.optional() }) },
    answer: signUpEmail,
  }),
  post("/sign-in/email", {
    limits: [limitByAddress],
    body: { schema: signInSchema },
    before: [limitSignInsOfAccount],
    after: [recordAdminSignIn],
  }),
  post("/sign-in/social", {
    limits: [limitByAddress],
    body: {
      schema: z.object({
        provider: z.string().min(1).max(50),
        callbackURL: urlText,
        errorCallbackURL: urlText,
        newUserCallbackURL: urlText,
      }),
    },
  }),
  post("/sign-out", { body: { schema: noFields } }),
  post("/request-password-reset", {
    limits: [limitByAddress],
    body: { schema: resetRequestSchema },
    answer: resetRequest,
  }),
  post("/reset-password", {
    limits: [limitByAddress],
    body: {
      schema: z.object({ newPassword: passwordSchema, token: z.string().min(1).max(500) }),
      formNames: { newPassword: "password" },
    },
  }),
  post("/change-password", {
    limits: [limitPasswordChanges],
    body: {
      schema: z.object({
        currentPassword: z.string({ error: accountMessages.passwordRequired }).min(1).max(128),
        newPassword: passwordSchema,
        // The account's other sessions end unless the request keeps them (the current one goes on).
        revokeOtherSessions: z.boolean().default(true),
      }),
      formNames: { newPassword: "password" },
    },
    after: [endResetLinksOfChanged, mailPasswordChanged],
  }),
  post("/update-user", {
    body: { schema: z.object({ name: signUpSchema.shape.name.optional(), phone: phoneSchema.optional() }) },
  }),
  post("/revoke-session", { body: { schema: z.object({ token: z.string().min(1).max(500) }) } }),
  post("/revoke-sessions", { body: { schema: noFields } }),
  post("/revoke-other-sessions", { body: { schema: noFields } }),
  // The signed-in customer's own address: the email is the session's, never the request's.
  post("/send-verification-email", {
    limits: [limitByAddress],
    body: { schema: z.object({ callbackURL: shopPath.optional() }) },
    before: [verificationRequest],
  }),
  // Second factors (issue 32): an authenticator app with backup codes, and passkeys.
  post("/two-factor/enable", {
    limits: [limitByAddress],
    body: {
      schema: z.object({ password: z.string({ error: accountMessages.passwordRequired }).min(1).max(128) }),
    },
    before: [limitFactorPasswords],
  }),
  post("/two-factor/verify-totp", {
    limits: [limitByAddress],
    body: { schema: z.object({ code: factorCodeSchema }) },
    before: [factorAccount, claimAppCode],
    after: [releaseWrongCode, recordFactor("user.factor_added", "app"), markFactorProved],
  }),
  post("/two-factor/verify-backup-code", {
    limits: [limitByAddress],
    body: { schema: z.object({ code: factorCodeSchema }) },
    before: [factorAccount],
    after: [markFactorProved],
  }),
  post("/two-factor/generate-backup-codes", {
    limits: [limitByAddress],
    body: {
      schema: z.object({ password: z.string({ error: accountMessages.passwordRequired }).min(1).max(128) }),
    },
    before: [limitFactorPasswords],
  }),
  post("/two-factor/disable", {
    limits: [limitByAddress],
    body: { schema: z.object({ password: z.string().min(1).max(128).optional() }) },
    before: [passwordOrFactor],
    answer: disableApp,
  }),
  {
    method: "GET",
    path: "/passkey/generate-register-options",
    before: [signedIn],
  },
  post("/passkey/verify-registration", {
    body: { schema: z.object({ response: webAuthnResponseSchema, name: passkeyNameSchema }) },
    before: [signedIn],
    after: [recordFactor("user.factor_added", "passkey"), markFactorProved],
  }),
  { method: "GET", path: "/passkey/generate-authenticate-options", limits: [limitByAddress] },
  post("/passkey/verify-authentication", {
    limits: [limitByAddress],
    body: { schema: z.object({ response: webAuthnResponseSchema }) },
    before: [whoIsSignedIn],
    after: [markFactorProved],
  }),
  post("/passkey/delete-passkey", {
    limits: [limitByAddress],
    body: {
      schema: z.object({ id: z.string().min(1).max(100), password: z.string().min(1).max(128).optional() }),
    },
    before: [passwordOrFactor],
    after: [endOthersOnRemoval, recordFactor("user.factor_removed", "passkey")],
  }),
  { method: "GET", path: `/callback/${GOOGLE_PROVIDER_ID}` },
  { method: "GET", path: "/verify-email", limits: [limitByAddress], before: [keepCallbackOnShop] },
];

/** The endpoints by "METHOD /path" (HEAD is Fastify's mirror of GET, and served as GET is). */
const BY_ROUTE = new Map(ENDPOINTS.map((e) => [`${e.method} ${e.path}`, e]));
const pathsOf = (method: Endpoint["method"]) =>
  ENDPOINTS.filter((e) => e.method === method).map((e) => e.path);
/** The better-auth POST endpoints the shop serves, as paths under /api/auth. */
export const AUTH_POST_PATHS = pathsOf("POST");
/** The better-auth GET endpoints the shop serves, as paths under /api/auth. */
export const AUTH_GET_PATHS = pathsOf("GET");

/** A better-auth error answer, thrown for plugins/errors.ts to answer by the table below. */
const BETTER_AUTH = "better-auth";
/** A better-auth error in the shop's own words, keeping better-auth's code. */
const inShopWords = (status: number, detail: string) => (error: ForeignError) =>
  new HttpProblem(status, titleFor(status), detail, undefined, error.code);

/** better-auth's error answers as problems: its code kept, and the shop's own words where it has them. */
export const authProblems: ProblemTable = {
  source: BETTER_AUTH,
  codes: {
    INVALID_EMAIL_OR_PASSWORD: inShopWords(401, accountMessages.invalidCredentials),
    [problemCodes.invalidToken]: inShopWords(400, accountMessages.resetLinkInvalid),
    PROVIDER_NOT_FOUND: inShopWords(404, accountMessages.googleNotConfigured),
    INVALID_CODE: inShopWords(401, secondFactorMessages.codeInvalid),
    INVALID_BACKUP_CODE: inShopWords(401, secondFactorMessages.codeInvalid),
    INVALID_PASSWORD: inShopWords(400, secondFactorMessages.passwordInvalid),
    INVALID_TWO_FACTOR_COOKIE: inShopWords(401, secondFactorMessages.signInExpired),
    TOO_MANY_ATTEMPTS_REQUEST_NEW_CODE: inShopWords(401, secondFactorMessages.signInExpired),
    ACCOUNT_TEMPORARILY_LOCKED: inShopWords(429, secondFactorMessages.locked),
    TOTP_ALREADY_ENABLED: inShopWords(409, secondFactorMessages.alreadyOn),
    TOTP_NOT_ENABLED: inShopWords(400, secondFactorMessages.noApp),
  },
  otherwise: (error) => {
    const status = error.status ?? 500;
    const code = error.code || undefined;
    if (status >= 500) return serverFault(error, code);
    return new HttpProblem(status, titleFor(status), error.message || "The request failed.", undefined, code);
  },
};

/** better-auth's endpoints under /api/auth, each behind the shop's own checks of its body and rate. */
export async function authRoutes(app: FastifyInstance, opts: AuthRoutesOptions) {
  const deps: Deps = {
    app,
    auth: opts.auth,
    mailer: opts.mailer,
    limit: opts.rateLimit ?? { max: app.config.authRateLimitPerMinute, windowSeconds: 60 },
    mailLimits: {
      perKind: app.config.authMailLimitPerHour,
      perRecipient: app.config.mail.perRecipientPerHour,
    },
  };

  app.route({
    method: ["GET", "POST"],
    url: `${AUTH_BASE_PATH}/*`,
    schema: { hide: true },
    handler: async (request, reply) => {
      const url = new URL(request.url, app.config.publicUrl);
      const subPath = url.pathname.slice(AUTH_BASE_PATH.length);
      const method = request.method === "POST" ? "POST" : "GET";
      const endpoint = BY_ROUTE.get(`${method} ${subPath}`);
      if (!endpoint) throw notFound();
      const call: Call = { deps, request, reply, url, body: undefined, user: null, factorUserId: null };
      for (const step of endpoint.limits ?? []) await step(call);
      if (endpoint.body) call.body = checkBody(endpoint.body, request.body ?? {});
      for (const step of endpoint.before ?? []) await step(call);
      const askBetterAuth = () => opts.auth.handler(betterAuthRequest(call));
      if (endpoint.answer) return endpoint.answer(call, askBetterAuth);
      const response = await askBetterAuth();
      for (const step of endpoint.after ?? []) await step(call, response);
      return forward(response, reply);
    },
  });
}

/** The request better-auth gets: the client's headers, the call's URL and its checked body. */
function betterAuthRequest({ request, url, body }: Call): Request {
  const headers = new Headers();
  for (const [key, value] of Object.entries(request.headers)) {
    // The body better-auth gets is the checked one, of its own length.
    if (value === undefined || key === "content-length") continue;
    if (Array.isArray(value)) for (const v of value) headers.append(key, v);
    else headers.set(key, String(value));
  }
  // better-auth reads the client address from this header; give it the one Fastify trusts.
  headers.set("x-forwarded-for", request.ip);
  return new Request(url, {
    method: request.method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

/** The body as its schema parses it (only its own fields), or a 400 problem listing what is wrong. */
function checkBody({ schema, formNames }: AuthBody, body: unknown): unknown {
  const parsed = schema.safeParse(body);
  if (parsed.success) return parsed.data;
  const errors = fieldErrors(parsed.error.issues, formNames);
  throw badRequest(errors[0]?.message ?? "The request is invalid.", errors);
}

/** The `code` of a better-auth error answer, or "" when it has none. */
async function errorCode(response: Response): Promise<string> {
  try {
    const body = (await response.json()) as { code?: unknown };
    return typeof body.code === "string" ? body.code : "";
  } catch {
    return "";
  }
}

/**
 * Sends better-auth's answer on; its errors are thrown as ForeignErrors, which plugins/errors.ts
 * answers by authProblems.
 */
async function forward(response: Response, reply: FastifyReply) {
  for (const cookie of response.headers.getSetCookie()) reply.header("set-cookie", cookie);
  for (const [key, value] of response.headers) {
    if (key !== "set-cookie" && key !== "content-length") reply.header(key, value);
  }
  const text = await response.text();
  if (response.status < 400) return reply.code(response.status).send(text || null);
  let body: { code?: string; message?: string } = {};
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON: keep the generic detail
  }
  const code = typeof body.code === "string" ? body.code : "";
  const message = typeof body.message === "string" ? body.message : "";
  throw new ForeignError(BETTER_AUTH, code, response.status, message, {
    cause: new Error(`better-auth answered ${response.status}`),
  });
}
