import { z } from "zod";
import { meSchema, sessionSchema } from "../../../shared/accounts.js";
import { factorsSchema } from "../../../shared/second-factor.js";
import { endedSessionsSchema, sessionIdParamsSchema, sessionListSchema } from "../../../shared/sessions.js";
import { userIdParamsSchema } from "../../../shared/users.js";
import { featureRoutes, personal, routeOptions } from "../../lib/routes.js";
import { actorOf } from "../activity/index.js";
import { listFactors } from "./second-factor.js";
import { endOtherSessions, endSession, endUserSessions, listSessions } from "./sessions.js";

export const accountRoutes = featureRoutes(["accounts"], async (app, route) => {
  app.get(
    "/api/me",
    route.user({
      summary: "The signed-in user with their role",
      response: { 200: meSchema },
    }),
    async (request) => request.user,
  );

  // What every page asks first: a 200 for visitors too, so a signed-out visit logs no failed request.
  app.get(
    "/api/session",
    route.anyone({
      summary: "The signed-in user with their role, or null for a visitor",
      response: { 200: sessionSchema },
    }),
    personal(async (request) => ({ user: await request.currentUser() })),
  );

  // Second factors (docs/product.md, "Second factors"): enrolled and removed through /api/auth.
  app.get(
    "/api/account/factors",
    route.user({
      summary: "The signed-in user's second factors: the authenticator app, backup codes left, passkeys",
      response: { 200: factorsSchema },
    }),
    personal((request) => listFactors(app.db, app.auth, request.user)),
  );

  // Signed-in sessions (docs/product.md, "Sessions"): the user's own, and an admin's end-all.
  const sessionRoute = routeOptions(app, ["sessions"]);
  app.get(
    "/api/account/sessions",
    sessionRoute.user({
      summary: "The signed-in user's sessions: browser, address, last seen, and which is this one",
      response: { 200: sessionListSchema },
    }),
    personal((request) => listSessions(app.db, request.user.id, request.user.sessionId)),
  );

  app.delete(
    "/api/account/sessions/:id",
    sessionRoute.user({
      summary: "End one of the signed-in user's other sessions",
      description:
        "404 when it is not one of theirs or has ended; 409 for the session in use (sign out ends it).",
      params: sessionIdParamsSchema,
      response: { 204: z.null() },
      problems: [404, 409],
    }),
    async (request, reply) => {
      await endSession(app.db, request.user.id, request.user.sessionId, request.params.id);
      return reply.code(204).send(null);
    },
  );

  app.post(
    "/api/account/sessions/end-others",
    sessionRoute.user({
      summary: "End every session of the signed-in user but this one",
      response: { 200: endedSessionsSchema },
    }),
    async (request) => ({ ended: await endOtherSessions(app.db, request.user.id, request.user.sessionId) }),
  );

  app.delete(
    "/api/users/:id/sessions",
    sessionRoute.admin({
      summary: "End every session of a user (admin); on the activity log",
      params: userIdParamsSchema,
      response: { 200: endedSessionsSchema },
      problems: [404],
    }),
    async (request) => ({ ended: await endUserSessions(app.db, actorOf(request), request.params.id) }),
  );
});
