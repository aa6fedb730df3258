import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { meSchema } from "../../../shared/accounts.js";
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
};
