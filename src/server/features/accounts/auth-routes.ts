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
import { claimRecipient } from "../../lib/mail-cap.js";
import type { Mailer } from "../../lib/mailer.js";
import {
  badRequest,
  conflict,
  HttpProblem,
  notFound,
  serverFault,
  TooManyRequests,
  titleFor,
  unauthorized,
} from "../../lib/problem.js";
import { enforceRateLimit } from "../../lib/rate-limit.js";
import type { SessionUser } from "../../plugins/session.js";
import { AUTH_BASE_PATH, type Auth, accountExistsMail, GOOGLE_PROVIDER_ID, sendNoResetMail } from "./auth.js";
import { accountByEmail, claimMail, endResetLinks, mailCapKey } from "./service.js";

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

interface AuthBody {
  schema: z.ZodType;
  /** better-auth's name of a field → the form's, so a problem's errors land under the right input. */
  formNames?: Record<string, string>;
}

/**
 * Every better-auth POST endpoint the shop serves, with the body it takes. Only the parsed body
 * reaches better-auth, so fields the shop does not take (role, emailVerified, image, id…) never do,
 * and every text keeps the shop's own rules (a changed or reset password follows the sign-up
 * pattern, a name its 80 characters). Any other POST under /api/auth (delete-user, change-email,
 * get-access-token, link-social…) answers 404: the shop offers none of them.
 */
const POST_BODIES: Record<string, AuthBody> = {
  "/sign-up/email": { schema: signUpSchema.extend({ callbackURL: shopPath.optional() }) },
  "/sign-in/email": { schema: signInSchema },
  "/sign-in/social": {
    schema: z.object({
      provider: z.string().min(1).max(50),
      callbackURL: urlText,
      errorCallbackURL: urlText,
      newUserCallbackURL: urlText,
    }),
  },
  "/sign-out": { schema: noFields },
  "/request-password-reset": { schema: resetRequestSchema },
  "/reset-password": {
    schema: z.object({ newPassword: passwordSchema, token: z.string().min(1).max(500) }),
    formNames: { newPassword: "password" },
  },
  "/change-password": {
    schema: z.object({
      currentPassword: z.string({ error: accountMessages.passwordRequired }).min(1).max(128),
      newPassword: passwordSchema,
      // The account's other sessions end unless the request keeps them (the current one goes on).
      revokeOtherSessions: z.boolean().default(true),
    }),
    formNames: { newPassword: "password" },
  },
  "/update-user": {
    schema: z.object({ name: signUpSchema.shape.name.optional(), phone: phoneSchema.optional() }),
  },
  "/revoke-session": { schema: z.object({ token: z.string().min(1).max(500) }) },
  "/revoke-sessions": { schema: noFields },
  "/revoke-other-sessions": { schema: noFields },
  // The signed-in customer's own address: the email is the session's, never the request's.
  "/send-verification-email": { schema: z.object({ callbackURL: shopPath.optional() }) },
};
/** The better-auth POST endpoints the shop serves, as paths under /api/auth. */
export const AUTH_POST_PATHS = Object.keys(POST_BODIES);
/**
 * The better-auth GET endpoints the shop serves: Google's OAuth callback, where Google sends the
 * browser back, and verify-email, where the verification mail's link goes (its callbackURL must be
 * a path of the shop's: see isShopPath). Every other GET under /api/auth answers 404, among them
 * better-auth's error page (which shows text from its query string on the shop's origin, next to a
 * link to another site), get-session and list-sessions (the client asks /api/session),
 * reset-password/:token (the reset mail links to the shop's own page), delete-user/callback,
 * account-info, list-accounts and ok. OAuth failures are sent to the login page instead of that
 * error page (`onAPIError.errorURL` in auth.ts).
 */
export const AUTH_GET_PATHS = [`/callback/${GOOGLE_PROVIDER_ID}`, "/verify-email"];
const GET_PATHS = new Set(AUTH_GET_PATHS);
const RATE_LIMITED =
  /^\/(sign-in|sign-up|request-password-reset|reset-password|send-verification-email)(\/|$)/;
const SIGN_UP_PATH = "/sign-up/email";
const SIGN_IN_PATH = "/sign-in/email";
const SEND_VERIFICATION_PATH = "/send-verification-email";
const VERIFY_PATH = "/verify-email";
const CHANGE_PASSWORD_PATH = "/change-password";
const RESET_REQUEST_PATH = "/request-password-reset";
/** better-auth's codes for a sign-up whose email was taken after the shop looked. */
const ALREADY_EXISTS = new Set(["USER_ALREADY_EXISTS", "USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL"]);
/** Sign-up's one answer, for a new email and a known one alike. */
const SIGNED_UP = { ok: true } as const;

/** better-auth's error codes the shop answers in its own words. */
const ERROR_MAP: Record<string, { status: number; detail: string }> = {
  INVALID_EMAIL_OR_PASSWORD: { status: 401, detail: accountMessages.invalidCredentials },
  INVALID_TOKEN: { status: 400, detail: accountMessages.resetLinkInvalid },
  PROVIDER_NOT_FOUND: { status: 404, detail: accountMessages.googleNotConfigured },
};

/** better-auth's endpoints under /api/auth, each behind the shop's own checks of its body and rate. */
export async function authRoutes(app: FastifyInstance, opts: AuthRoutesOptions) {
  const { auth } = opts;
  const limit = opts.rateLimit ?? { max: app.config.authRateLimitPerMinute, windowSeconds: 60 };
  /** Each account mail's own cap, and its recipient's across every kind of mail. */
  const mailLimits = {
    perKind: app.config.authMailLimitPerHour,
    perRecipient: app.config.mail.perRecipientPerHour,
  };

  /**
   * Sign-up answers 200 {ok: true} whether or not the email has an account, so the form cannot tell
   * anyone who shops here. A new email gets its account and session; a known one no session, and
   * its owner a mail. Both paths hash the password with better-auth's own hasher, so the time taken
   * tells nothing either. (The session cookie still differs: hiding that too would need email
   * verification before the first sign-in, which docs/product.md does not have.)
   */
  async function signUpEmail(
    input: z.output<typeof signUpSchema>,
    toBetterAuth: () => Promise<Response>,
    reply: FastifyReply,
  ) {
    if (!(await accountByEmail(app.db, input.email))) {
      const response = await toBetterAuth();
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
      opts.mailer
        .send({ to: input.email, ...accountExistsMail(app.config.publicUrl) })
        .catch((error: unknown) => app.log.error({ err: error }, "account-exists mail failed"));
    return reply.code(200).send(SIGNED_UP);
  }

  /** Counts an attempt under `key`; a 429 with `Retry-After` once the limit is reached. */
  const limitAttempts = (key: string, detail: string) => enforceRateLimit(app.db, key, limit, detail);

  /**
   * A resend of the verification link: for the signed-in customer's own address (401 without a
   * session), under the address's mail cap (AUTH_MAIL_LIMIT_PER_HOUR, shared with the sign-up's
   * link): over it, a 429 that says when to ask again. The body better-auth gets names the
   * session's email.
   */
  async function verificationRequest(request: FastifyRequest, body: unknown) {
    const user = await request.currentUser();
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
    return { ...(body as object), email: user.email };
  }

  app.route({
    method: ["GET", "POST"],
    url: `${AUTH_BASE_PATH}/*`,
    schema: { hide: true },
    handler: async (request, reply) => {
      const url = new URL(request.url, app.config.publicUrl);
      const subPath = url.pathname.slice(AUTH_BASE_PATH.length);
      let body: unknown;
      // The account whose password this request changes (known from its session).
      let changing: SessionUser | null = null;
      if (request.method === "POST") {
        if (RATE_LIMITED.test(subPath)) {
          await limitAttempts(`auth:${request.ip}`, accountMessages.rateLimited);
        }
        if (subPath === CHANGE_PASSWORD_PATH) {
          // Like sign-in, per client address; and per account, however many addresses guess.
          const detail = accountMessages.changePasswordRateLimited;
          await limitAttempts(`change-password:${request.ip}`, detail);
          changing = await request.currentUser();
          if (changing) await limitAttempts(`change-password:user:${changing.id}`, detail);
        }
        const accepted = POST_BODIES[subPath];
        if (!accepted) throw notFound();
        body = checkBody(accepted, request.body ?? {});
        if (subPath === SIGN_IN_PATH) {
          // Per account as well, whatever the addresses the guesses come from (issue 28, item 1).
          // Keyed by the address typed, account or not, so the 429 tells nobody who shops here;
          // counted before the password is checked, so once limited the right one is refused too.
          const { email } = body as z.output<typeof signInSchema>;
          await limitAttempts(`sign-in:account:${email}`, accountMessages.signInAccountRateLimited);
        }
        if (subPath === SEND_VERIFICATION_PATH) body = await verificationRequest(request, body);
      } else if (!GET_PATHS.has(subPath)) {
        // GET, and HEAD (Fastify's mirror of GET routes).
        throw notFound();
      } else if (subPath === VERIFY_PATH) {
        await limitAttempts(`auth:${request.ip}`, accountMessages.rateLimited);
        // A link whose way back is not a path of the shop's brings the customer to the home page.
        const back = url.searchParams.get("callbackURL");
        if (back !== null && !isShopPath(back)) url.searchParams.set("callbackURL", "/");
      }
      const headers = new Headers();
      for (const [key, value] of Object.entries(request.headers)) {
        // The body better-auth gets is the checked one, of its own length.
        if (value === undefined || key === "content-length") continue;
        if (Array.isArray(value)) for (const v of value) headers.append(key, v);
        else headers.set(key, String(value));
      }
      // better-auth reads the client address from this header; give it the one Fastify trusts.
      headers.set("x-forwarded-for", request.ip);
      const toBetterAuthRequest = new Request(url, {
        method: request.method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const toBetterAuth = () => auth.handler(toBetterAuthRequest);
      if (request.method === "POST" && subPath === SIGN_UP_PATH)
        return signUpEmail(body as z.output<typeof signUpSchema>, toBetterAuth, reply);
      if (request.method === "POST" && subPath === RESET_REQUEST_PATH) {
        // The same two statements whether or not the address has an account, so neither the
        // answer nor its time tells. Under the address's mail cap, the new link ends the earlier
        // ones; over it, no mail goes out and the earlier links (already in the inbox) stay.
        const { email } = body as z.output<typeof resetRequestSchema>;
        if (await claimMail(app.db, "reset", email, mailLimits)) await endResetLinks(app.db, { email });
        else sendNoResetMail(toBetterAuthRequest);
      }
      const response = await toBetterAuth();
      // A changed password ends every reset link of the account.
      if (changing && subPath === CHANGE_PASSWORD_PATH && response.ok)
        await endResetLinks(app.db, { userId: changing.id });
      return forward(response, reply);
    },
  });
}

/** The body as its schema parses it (only its own fields), or a 400 problem listing what is wrong. */
function checkBody({ schema, formNames = {} }: AuthBody, body: unknown): unknown {
  const parsed = schema.safeParse(body);
  if (parsed.success) return parsed.data;
  const errors = parsed.error.issues.map((i) => {
    const path = i.path.map(String).join(".");
    return { path: formNames[path] ?? path, message: i.message };
  });
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
 * Sends better-auth's answer on; its errors are thrown as problems (plugins/errors.ts answers them),
 * with better-auth's code, and the shop's own words where ERROR_MAP has them.
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
  const mapped = body.code ? ERROR_MAP[body.code] : undefined;
  if (mapped)
    throw new HttpProblem(mapped.status, titleFor(mapped.status), mapped.detail, undefined, body.code);
  if (response.status >= 500)
    throw serverFault(new Error(`better-auth answered ${response.status}`), body.code);
  throw new HttpProblem(
    response.status,
    titleFor(response.status),
    body.message ?? "The request failed.",
    undefined,
    body.code,
  );
}
