import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import fp from "fastify-plugin";
import type { z } from "zod";
import {
  passwordSchema,
  type Role,
  resetRequestSchema,
  signInSchema,
  signUpSchema,
} from "../../shared/accounts.js";
import { messages } from "../../shared/messages.js";
import { AUTH_BASE_PATH, type Auth, createAuth } from "../features/accounts/auth.js";
import type { Mailer } from "../lib/mailer.js";
import { forbidden, HttpProblem, titleFor, unauthorized } from "../lib/problem.js";
import { hitRateLimit } from "../lib/rate-limit.js";
import { sendProblem } from "./errors.js";

export interface SessionUser {
  id: string;
  name: string;
  email: string;
  phone: string;
  role: Role;
}

declare module "fastify" {
  interface FastifyInstance {
    auth: Auth;
    /** onRequest hook: the request must carry a valid session, checked before its body is read. */
    requireUser: (request: FastifyRequest) => Promise<void>;
    /** onRequest hook: the request must carry a valid session of an admin. */
    requireAdmin: (request: FastifyRequest) => Promise<void>;
  }
  interface FastifyRequest {
    /** The signed-in user, read once per request from the session in PostgreSQL. */
    currentUser(): Promise<SessionUser | null>;
    /** The signed-in user; throws 401 when there is none. */
    user: SessionUser;
  }
}

export interface AuthPluginOptions {
  mailer: Mailer;
  /** Attempts per address and window on sign-in, sign-up and reset requests. */
  rateLimit?: { max: number; windowSeconds: number };
}

/** Which request bodies are checked with the shared schemas before better-auth sees them. */
const BODY_SCHEMAS: Record<string, z.ZodType> = {
  "/sign-up/email": signUpSchema,
  "/sign-in/email": signInSchema,
  "/request-password-reset": resetRequestSchema,
  "/reset-password": passwordSchema,
};
const RATE_LIMITED = /^\/(sign-in|sign-up|request-password-reset|reset-password)(\/|$)/;

const ERROR_MAP: Record<string, { status: number; detail: string }> = {
  USER_ALREADY_EXISTS: { status: 409, detail: messages.auth.emailInUse },
  USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL: { status: 409, detail: messages.auth.emailInUse },
  INVALID_EMAIL_OR_PASSWORD: { status: 401, detail: messages.auth.invalidCredentials },
  INVALID_TOKEN: { status: 400, detail: messages.auth.resetLinkInvalid },
  PROVIDER_NOT_FOUND: { status: 404, detail: messages.auth.googleNotConfigured },
};

async function authPlugin(app: FastifyInstance, opts: AuthPluginOptions) {
  const auth = createAuth(app.config, app.db, opts.mailer, app.log);
  const limit = opts.rateLimit ?? { max: app.config.authRateLimitPerMinute, windowSeconds: 60 };
  app.decorate("auth", auth);

  const cache = new WeakMap<FastifyRequest, Promise<SessionUser | null>>();
  app.decorateRequest("currentUser", function (this: FastifyRequest) {
    let pending = cache.get(this);
    if (!pending) {
      pending = readSession(auth, this);
      cache.set(this, pending);
    }
    return pending;
  });
  const signedIn = new WeakMap<FastifyRequest, SessionUser>();
  app.decorateRequest("user", {
    getter(this: FastifyRequest) {
      const user = signedIn.get(this);
      if (!user) throw unauthorized();
      return user;
    },
  });

  const requireUser = async (request: FastifyRequest) => {
    const user = await request.currentUser();
    if (!user) throw unauthorized();
    signedIn.set(request, user);
  };
  app.decorate("requireUser", requireUser);
  app.decorate("requireAdmin", async (request: FastifyRequest) => {
    await requireUser(request);
    if (request.user.role !== "admin") throw forbidden("This page is for admins only.");
  });

  app.route({
    method: ["GET", "POST"],
    url: `${AUTH_BASE_PATH}/*`,
    schema: { hide: true },
    handler: async (request, reply) => {
      const url = new URL(request.url, app.config.publicUrl);
      const subPath = url.pathname.slice(AUTH_BASE_PATH.length);
      if (request.method === "POST") {
        if (RATE_LIMITED.test(subPath)) {
          const hit = await hitRateLimit(app.db, `auth:${request.ip}`, limit.max, limit.windowSeconds);
          if (!hit.allowed) {
            reply.header("retry-after", String(hit.retryAfterSeconds));
            return sendProblem(reply, {
              status: 429,
              title: "Too Many Requests",
              detail: messages.auth.rateLimited,
            });
          }
        }
        const schema = BODY_SCHEMAS[subPath];
        if (schema)
          checkBody(
            schema,
            subPath === "/reset-password"
              ? (request.body as { newPassword?: unknown })?.newPassword
              : request.body,
          );
      }
      const headers = new Headers();
      for (const [key, value] of Object.entries(request.headers)) {
        if (value === undefined) continue;
        if (Array.isArray(value)) for (const v of value) headers.append(key, v);
        else headers.set(key, String(value));
      }
      // better-auth reads the client address from this header; give it the one Fastify trusts.
      headers.set("x-forwarded-for", request.ip);
      const response = await auth.handler(
        new Request(url, {
          method: request.method,
          headers,
          body: request.method === "POST" ? JSON.stringify(request.body ?? {}) : undefined,
        }),
      );
      return forward(response, reply);
    },
  });
}

function checkBody(schema: z.ZodType, body: unknown) {
  const parsed = schema.safeParse(body);
  if (parsed.success) return;
  const errors = parsed.error.issues.map((i) => ({
    path: i.path.map(String).join(".") || "password",
    message: i.message,
  }));
  throw new HttpProblem(400, "Bad Request", errors[0]?.message ?? "The request is invalid.", errors);
}

async function readSession(auth: Auth, request: FastifyRequest): Promise<SessionUser | null> {
  if (!request.headers.cookie) return null;
  const headers = new Headers();
  headers.set("cookie", request.headers.cookie);
  const session = await auth.api.getSession({ headers });
  if (!session) return null;
  const u = session.user as typeof session.user & { phone?: string; role?: string };
  return {
    id: u.id,
    name: u.name,
    email: u.email,
    phone: u.phone ?? "",
    role: u.role === "admin" ? "admin" : "user",
  };
}

/** Sends better-auth's answer on, turning its errors into problem+json. */
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
  const status = mapped?.status ?? Math.min(response.status, 500);
  return sendProblem(reply, {
    status,
    title: titleFor(status),
    detail:
      mapped?.detail ??
      (status === 500
        ? "Something went wrong on our side. Please try again."
        : (body.message ?? "The request failed.")),
    ...(body.code ? { code: body.code } : {}),
  });
}

export default fp(authPlugin, { name: "auth", dependencies: ["errors"] });
