import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { mailPreferencesSchema, unsubscribeQuerySchema } from "../../../shared/mail-preferences.js";
import { mailPreferenceMessages as m } from "../../../shared/messages/mail-preferences.js";
import { badRequest } from "../../lib/problem.js";
import { featureRoutes } from "../../lib/routes.js";
import { getMailPreferences, setReminderMails } from "./service.js";
import { userOfUnsubscribeToken } from "./token.js";

/** The one-click unsubscribe route, exempt from the Origin check (plugins/security.ts): it carries its own secret. */
const ONE_CLICK_UNSUBSCRIBE_PATH = "/api/mail/unsubscribe";

/**
 * Which mails the signed-in customer gets (their own only: no route names another account), and the
 * one-click unsubscribe of the optional mails (RFC 8058), which needs no session.
 */
export const mailPreferenceRoutes = featureRoutes(["mail preferences"], async (app, route) => {
  app.get(
    "/api/me/mail-preferences",
    route.user({
      summary: "Which mails I get",
      response: { 200: mailPreferencesSchema },
    }),
    async (request) => getMailPreferences(app.db, request.user.id),
  );

  app.put(
    "/api/me/mail-preferences",
    route.user({
      summary: "Turn my reminder mails (payment reminders, back in stock) on or off",
      body: mailPreferencesSchema,
      response: { 200: mailPreferencesSchema },
    }),
    async (request) => {
      await setReminderMails(app.db, request.user.id, request.body.reminderMails);
      return getMailPreferences(app.db, request.user.id);
    },
  );

  // A mail client's one-click POST carries the form body "List-Unsubscribe=One-Click" (RFC 8058,
  // section 3.1): it is accepted here, on this route only, and not read (the token in the query
  // says everything). Everywhere else the shop takes JSON or multipart only (plugins/security.ts).
  await app.register(async (scope) => {
    const oneClick = scope.withTypeProvider<ZodTypeProvider>();
    oneClick.addContentTypeParser(
      "application/x-www-form-urlencoded",
      { parseAs: "string", bodyLimit: 1024 },
      (_request, _body, done) => done(null, {}),
    );
    oneClick.post(
      ONE_CLICK_UNSUBSCRIBE_PATH,
      route.anyone({
        summary: "Turn off reminder mails by the signed link of an optional mail (one click, no sign-in)",
        description:
          "RFC 8058 one-click unsubscribe: the List-Unsubscribe address of a payment reminder or back-in-stock mail. The token is the account's id signed with the shop's secret; 400 when it is not one the shop made. Without a session and exempt from the Origin check: the token is the proof.",
        querystring: unsubscribeQuerySchema,
        response: { 200: mailPreferencesSchema },
      }),
      async (request) => {
        const userId = userOfUnsubscribeToken(app.config.authSecret, request.query.token);
        if (!userId) throw badRequest(m.badLink);
        // An account deleted since has nothing left to send: the answer is the same.
        await setReminderMails(app.db, userId, false);
        return { reminderMails: false };
      },
    );
  });

  app.get(
    ONE_CLICK_UNSUBSCRIBE_PATH,
    route.anyone({
      summary: "The one-click unsubscribe address opened in a browser: the page that asks first",
      description:
        "A GET changes nothing (link scanners and previews follow links): it answers 303 to the client's /unsubscribe page, whose button makes the POST.",
      querystring: unsubscribeQuerySchema,
      response: {},
    }),
    async (request, reply) =>
      reply.redirect(`/unsubscribe?${new URLSearchParams({ token: request.query.token })}`, 303),
  );
});
