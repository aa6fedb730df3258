import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { roleInputSchema, userIdParamsSchema, userListSchema, userSchema } from "../../../shared/users.js";
import { problemResponses } from "../../lib/schemas.js";
import { listUsers, removeUser, setRole } from "./service.js";

/** All users and Make Admin (admin only). Accounts are created by sign-up, never here. */
export const userRoutes: FastifyPluginAsyncZod = async (app) => {
  const tags = ["users"];

  app.get(
    "/api/users",
    {
      onRequest: app.requireAdmin,
      schema: {
        tags,
        summary: "All users, oldest first (admin)",
        response: { 200: userListSchema, ...problemResponses(401, 403) },
      },
    },
    async () => listUsers(app.db),
  );

  app.delete(
    "/api/users/:id",
    {
      onRequest: app.requireAdmin,
      schema: {
        tags,
        summary: "Remove a user and end their sessions; their orders stay as records (admin)",
        params: userIdParamsSchema,
        response: { 204: z.null(), ...problemResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request, reply) => {
      await removeUser(app.db, request.user.id, request.params.id);
      return reply.code(204).send(null);
    },
  );

  app.put(
    "/api/users/:id/role",
    {
      onRequest: app.requireAdmin,
      schema: {
        tags,
        summary: "Make admin or remove admin; the last admin cannot be demoted (admin)",
        params: userIdParamsSchema,
        body: roleInputSchema,
        response: { 200: userSchema, ...problemResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request) => setRole(app.db, request.params.id, request.body.role),
  );
};
