import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { EXACT_COUNT_LIMIT, LIST_PAGE_SIZE, MAX_LIST_PAGE_SIZE } from "../../../shared/paging.js";
import {
  roleInputSchema,
  USER_SEARCH_SUBSTRING_MIN,
  userIdParamsSchema,
  userListQuerySchema,
  userPageSchema,
  userSchema,
} from "../../../shared/users.js";
import { problemResponses } from "../../lib/schemas.js";
import { actorOf } from "../activity/index.js";
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
        summary: "A page of users, newest accounts first, by search and role (admin)",
        description: [
          `Cursor paging: \`limit\` rows (default ${LIST_PAGE_SIZE}, at most ${MAX_LIST_PAGE_SIZE}) after \`cursor\` (a page's \`nextCursor\`) or before \`before\` (its \`prevCursor\`), never both; a forged cursor is a 400.`,
          `\`search\` matches the name or email: anywhere from ${USER_SEARCH_SUBSTRING_MIN} characters on, otherwise at the start of the name, of a word in it, or of the email; it needs a letter or digit.`,
          `\`role\` keeps one role. \`total\` counts the matching users exactly up to ${EXACT_COUNT_LIMIT.toLocaleString("en-US")}, otherwise says "more than" (\`exact: false\`).`,
        ].join("\n\n"),
        querystring: userListQuerySchema,
        response: { 200: userPageSchema, ...problemResponses(400, 401, 403) },
      },
    },
    async (request) => listUsers(app.reads.of(request).db, request.query),
  );

  app.delete(
    "/api/users/:id",
    {
      onRequest: [app.requireAdmin, app.requireStepUp],
      schema: {
        tags,
        summary: "Remove a user and end their sessions; their orders stay as records (admin)",
        params: userIdParamsSchema,
        response: { 204: z.null(), ...problemResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request, reply) => {
      await removeUser(app.db, request.user.id, request.params.id, actorOf(request));
      return reply.code(204).send(null);
    },
  );

  app.put(
    "/api/users/:id/role",
    {
      onRequest: [app.requireAdmin, app.requireStepUp],
      schema: {
        tags,
        summary: "Make admin or remove admin; the last admin cannot be demoted (admin)",
        params: userIdParamsSchema,
        body: roleInputSchema,
        response: { 200: userSchema, ...problemResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request) => setRole(app.db, request.params.id, request.body.role, actorOf(request)),
  );
};
