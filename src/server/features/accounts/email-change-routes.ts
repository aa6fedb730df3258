import type { FastifyRequest } from "fastify";
import {
  emailChangeConfirmSchema,
  emailChangedSchema,
  emailChangeRequestedSchema,
  emailChangeRequestSchema,
} from "../../../shared/email-change.js";
import { accountMessages } from "../../../shared/messages/accounts.js";
import { emailChangeMessages as m } from "../../../shared/messages/email-change.js";
import type { Mailer } from "../../lib/mailer.js";
import { enforceRateLimit } from "../../lib/rate-limit.js";
import { featureRoutes } from "../../lib/routes.js";
import { actorOf } from "../activity/index.js";
import { confirmEmailChange, type EmailChangeDeps, requestEmailChange } from "./email-change.js";

export interface EmailChangeRoutesOptions {
  mailer: Mailer;
  /** Guesses per address (and per account) and window; AUTH_RATE_LIMIT_PER_MINUTE a minute by default. */
  rateLimit?: { max: number; windowSeconds: number };
}

/** Change email (docs/product.md, "Your account"): the request, and the followed link. */
export const emailChangeRoutes = featureRoutes<EmailChangeRoutesOptions>(
  ["accounts"],
  async (app, route, opts) => {
    const deps: EmailChangeDeps = {
      db: app.db,
      auth: app.auth,
      mailer: opts.mailer,
      config: app.config,
      log: app.log,
    };
    const perMinute = opts.rateLimit ?? { max: app.config.authRateLimitPerMinute, windowSeconds: 60 };
    /**
     * Password guesses, like change-password's: per client address, and per account however many
     * addresses guess; counted before the body is read, so a malformed guess counts too.
     */
    const limitGuesses = async (request: FastifyRequest) => {
      await enforceRateLimit(app.db, `email-change:${request.ip}`, perMinute, m.guessesLimited);
      await enforceRateLimit(app.db, `email-change:user:${request.user.id}`, perMinute, m.guessesLimited);
    };
    /** Tokens guessed at the link's endpoint, per client address (sign-in's limit). */
    const limitLinks = (request: FastifyRequest) =>
      enforceRateLimit(app.db, `auth:${request.ip}`, perMinute, accountMessages.rateLimited);

    app.post(
      "/api/account/email-change",
      route.user({
        summary: "Ask to change the signed-in user's email: a link goes to the new address",
        description:
          "Needs the current password. The answer is the same whether or not another account uses the address (that address's owner is told instead, and no link is made). 400 for the same address or a wrong password, 409 for an account without a password, 429 over the hourly cap.",
        body: emailChangeRequestSchema,
        response: { 202: emailChangeRequestedSchema },
        problems: [409, 429],
        hooks: [limitGuesses],
      }),
      async (request, reply) => {
        reply.header("cache-control", "private, no-store");
        return reply.code(202).send(await requestEmailChange(deps, request.user, request.body));
      },
    );

    app.post(
      "/api/account/email-change/confirm",
      route.anyone({
        summary: "Follow the link mailed to the new address: the email changes",
        description:
          "No session needed (the token proves the new inbox). The account's other sessions and reset links end, and the old address is told. 400 for a used or replaced link, 410 for an expired one, 409 when another account took the address meanwhile.",
        body: emailChangeConfirmSchema,
        response: { 200: emailChangedSchema },
        problems: [409, 410, 429],
        hooks: [limitLinks],
      }),
      async (request, reply) => {
        reply.header("cache-control", "private, no-store");
        return confirmEmailChange(
          deps,
          request.body.token,
          await request.currentUser(),
          actorOf(request, null),
        );
      },
    );
  },
);
