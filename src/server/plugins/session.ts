import type { FastifyInstance, FastifyRequest } from "fastify";
import fp from "fastify-plugin";
import type { Role } from "../../shared/accounts.js";
import { secondFactorMessages } from "../../shared/messages/second-factor.js";
import { problemCodes } from "../../shared/problem-codes.js";
import { forbidden, HttpProblem, unauthorized } from "../lib/problem.js";

export interface SessionUser {
  id: string;
  name: string;
  email: string;
  phone: string;
  role: Role;
  /** Whether the address was proved (a followed link, or Google's word): booking needs it. */
  emailVerified: boolean;
  /** The id of the session the request came with (never its token): the list of sessions marks it. */
  sessionId: string;
  /** An authenticator app is enrolled (passkeys are asked apart: see hasPasskey). */
  twoFactorEnabled: boolean;
  /** When this session last proved a second factor (signed in with one, or stepped up), or null. */
  secondFactorAt: Date | null;
}

declare module "fastify" {
  interface FastifyInstance {
    /** onRequest hook: the request must carry a valid session, checked before its body is read. */
    requireUser: (request: FastifyRequest) => Promise<void>;
    /**
     * onRequest hook: the request must carry a valid session of an admin, which proved a second
     * factor where ADMIN_SECOND_FACTOR requires one.
     */
    requireAdmin: (request: FastifyRequest) => Promise<void>;
    /**
     * onRequest hook, after requireUser or requireAdmin: for what cannot be undone, the session
     * proved its second factor within the last 10 minutes (an account without one passes only
     * where ADMIN_SECOND_FACTOR is optional).
     */
    requireStepUp: (request: FastifyRequest) => Promise<void>;
  }
  interface FastifyRequest {
    /** The signed-in user, read once per request from the session in PostgreSQL. */
    currentUser(): Promise<SessionUser | null>;
    /** The signed-in user; throws 401 when there is none. */
    user: SessionUser;
    /** The id of the user whose session this request read, if it read one (for the access log). */
    readonly sessionUserId: string | undefined;
  }
}

interface SessionPluginOptions {
  /** The user whose session these cookies carry, or null (the accounts feature reads better-auth's). */
  readSession: (cookie: string) => Promise<SessionUser | null>;
  /** Whether admins must prove a second factor (ADMIN_SECOND_FACTOR). */
  adminSecondFactor: "required" | "optional";
  /** Whether the account has a second factor to prove (an authenticator app or a passkey). */
  hasSecondFactor: (user: SessionUser) => Promise<boolean>;
}

/** How long a proved second factor lets a session do what cannot be undone. */
const STEP_UP_SECONDS = 10 * 60;

const refuse = (detail: string, code: string) => new HttpProblem(403, "Forbidden", detail, undefined, code);

/** The answer to a session that must prove its second factor again (the client asks for it, then retries). */
export const stepUpProblem = () => refuse(secondFactorMessages.stepUpRequired, problemCodes.stepUpRequired);

/** Whether the session proved a second factor within STEP_UP_SECONDS. */
export const provedRecently = (user: SessionUser) =>
  Date.now() - (user.secondFactorAt?.getTime() ?? 0) <= STEP_UP_SECONDS * 1000;

/** Who is signed in, and the guards that routes put in front of their handlers. */
async function sessionPlugin(app: FastifyInstance, opts: SessionPluginOptions) {
  const cache = new WeakMap<FastifyRequest, Promise<SessionUser | null>>();
  const readBy = new WeakMap<FastifyRequest, string>();
  app.decorateRequest("currentUser", function (this: FastifyRequest) {
    let pending = cache.get(this);
    if (!pending) {
      const { cookie } = this.headers;
      pending = cookie ? opts.readSession(cookie) : Promise.resolve(null);
      cache.set(this, pending);
      pending.then(
        (user) => user && readBy.set(this, user.id),
        () => {},
      );
    }
    return pending;
  });
  app.decorateRequest("sessionUserId", {
    getter(this: FastifyRequest) {
      return readBy.get(this);
    },
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
  const required = opts.adminSecondFactor === "required";
  /** An account without a factor where one is required is sent to enrolment, one with it to prove it. */
  const refuseUnproved = async (user: SessionUser) => {
    if (await opts.hasSecondFactor(user)) return stepUpProblem();
    return refuse(secondFactorMessages.enrolRequired, problemCodes.secondFactorEnrolment);
  };
  app.decorate("requireAdmin", async (request: FastifyRequest) => {
    await requireUser(request);
    const user = request.user;
    if (user.role !== "admin") throw forbidden("This page is for admins only.");
    if (required && !user.secondFactorAt) throw await refuseUnproved(user);
  });
  app.decorate("requireStepUp", async (request: FastifyRequest) => {
    const user = request.user;
    if (provedRecently(user)) return;
    if (!required && !(await opts.hasSecondFactor(user))) return;
    throw await refuseUnproved(user);
  });
}

export default fp(sessionPlugin, { name: "session" });
