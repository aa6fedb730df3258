import { profileInputSchema, profileSchema } from "../../../shared/accounts.js";
import { featureRoutes } from "../../lib/routes.js";
import { createProfile, getProfile, updateProfile } from "./service.js";

/** The signed-in user's own profile; there is no way to name another user's. */
export const profileRoutes = featureRoutes(["profile"], async (app, route) => {
  app.get(
    "/api/profile",
    route.user({ summary: "My profile", response: { 200: profileSchema } }),
    async (request) => getProfile(app.db, request.user),
  );

  app.post(
    "/api/profile",
    route.user({
      summary: "Create my profile",
      body: profileInputSchema,
      response: { 201: profileSchema },
      problems: [409],
    }),
    async (request, reply) => reply.code(201).send(await createProfile(app.db, request.user, request.body)),
  );

  app.put(
    "/api/profile",
    route.user({
      summary: "Update my profile",
      body: profileInputSchema,
      response: { 200: profileSchema },
      problems: [404],
    }),
    async (request) => updateProfile(app.db, request.user, request.body),
  );
});
