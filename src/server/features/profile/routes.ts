import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { profileInputSchema, profileSchema } from "../../../shared/accounts.js";
import { problemResponses } from "../../lib/schemas.js";
import { createProfile, getProfile, updateProfile } from "./service.js";

/** The signed-in user's own profile; there is no way to name another user's. */
export const profileRoutes: FastifyPluginAsyncZod = async (app) => {
  const tags = ["profile"];
  app.get(
    "/api/profile",
    {
      onRequest: app.requireUser,
      schema: { tags, summary: "My profile", response: { 200: profileSchema, ...problemResponses(401) } },
    },
    async (request) => getProfile(app.db, request.user),
  );

  app.post(
    "/api/profile",
    {
      onRequest: app.requireUser,
      schema: {
        tags,
        summary: "Create my profile",
        body: profileInputSchema,
        response: { 201: profileSchema, ...problemResponses(400, 401, 409) },
      },
    },
    async (request, reply) => reply.code(201).send(await createProfile(app.db, request.user, request.body)),
  );

  app.put(
    "/api/profile",
    {
      onRequest: app.requireUser,
      schema: {
        tags,
        summary: "Update my profile",
        body: profileInputSchema,
        response: { 200: profileSchema, ...problemResponses(400, 401, 404) },
      },
    },
    async (request) => updateProfile(app.db, request.user, request.body),
  );
};
