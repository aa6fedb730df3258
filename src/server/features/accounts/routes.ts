import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { meSchema, sessionSchema } from "../../../shared/accounts.js";
import { problemResponses } from "../../lib/schemas.js";

export const accountRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    "/api/me",
    {
      onRequest: app.requireUser,
      schema: {
        tags: ["accounts"],
        summary: "The signed-in user with their role",
        response: { 200: meSchema, ...problemResponses(401) },
      },
    },
    async (request) => request.user,
  );

  // What every page asks first: a 200 for visitors too, so a signed-out visit logs no failed request.
  app.get(
    "/api/session",
    {
      schema: {
        tags: ["accounts"],
        summary: "The signed-in user with their role, or null for a visitor",
        response: { 200: sessionSchema },
      },
    },
    async (request, reply) => {
      reply.header("cache-control", "private, no-store");
      return { user: await request.currentUser() };
    },
  );
};
