import { z } from "zod";
import {
  roleInputSchema,
  USER_SEARCH_SUBSTRING_MIN,
  userIdParamsSchema,
  userListQuerySchema,
  userPageSchema,
  userSchema,
} from "../../../shared/users.js";
import { featureRoutes } from "../../lib/routes.js";
import { boundedTotalText, cursorPagingText } from "../../lib/schemas.js";
import { actorOf } from "../activity/index.js";
import { listUsers, removeUser, setRole } from "./service.js";

/** All users and Make Admin (admin only). Accounts are created by sign-up, never here. */
export const userRoutes = featureRoutes(["users"], async (app, route) => {
  route.adminList("/api/users", userListQuerySchema, userPageSchema, listUsers, {
    summary: "A page of users, newest accounts first, by search and role (admin)",
    description: [
      cursorPagingText(
        "rows",
        "after `cursor` (a page's `nextCursor`) or before `before` (its `prevCursor`), never both",
      ),
      `\`search\` matches the name or email: anywhere from ${USER_SEARCH_SUBSTRING_MIN} characters on, otherwise at the start of the name, of a word in it, or of the email; it needs a letter or digit.`,
      `\`role\` keeps one role. ${boundedTotalText("the matching users")}`,
    ].join("\n\n"),
  });

  app.delete(
    "/api/users/:id",
    route.stepUp({
      summary: "Remove a user and end their sessions; their orders stay as records (admin)",
      params: userIdParamsSchema,
      response: { 204: z.null() },
      problems: [404, 409],
    }),
    async (request, reply) => {
      await removeUser(app.db, request.user.id, request.params.id, actorOf(request));
      return reply.code(204).send(null);
    },
  );

  app.put(
    "/api/users/:id/role",
    route.stepUp({
      summary: "Make admin or remove admin; the last admin cannot be demoted (admin)",
      params: userIdParamsSchema,
      body: roleInputSchema,
      response: { 200: userSchema },
      problems: [404, 409],
    }),
    async (request) => setRole(app.db, request.params.id, request.body.role, actorOf(request)),
  );
});
