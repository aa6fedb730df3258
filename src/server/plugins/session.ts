import type { FastifyInstance, FastifyRequest } from "fastify";
import fp from "fastify-plugin";
import type { Role } from "../../shared/accounts.js";
import { forbidden, unauthorized } from "../lib/problem.js";

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
}

declare module "fastify" {
  interface FastifyInstance {
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
    /** The id of the user whose session this request read, if it read one (for the access log). */
    readonly sessionUserId: string | undefined;
  }
}

interface SessionPluginOptions {
  /** The user whose session these cookies carry, or null (the accounts feature reads better-auth's). */
  readSession: (cookie: string) => Promise<SessionUser | null>;
}

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
  app.decorate("requireAdmin", async (request: FastifyRequest) => {
    await requireUser(request);
    if (request.user.role !== "admin") throw forbidden("This page is for admins only.");
  });
}

export default fp(sessionPlugin, { name: "session" });
