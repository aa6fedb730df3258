import { z } from "zod";
import { deleteAccountSchema } from "../../../shared/account-deletion.js";
import { claimRecipient } from "../../lib/mail-cap.js";
import type { Mailer } from "../../lib/mailer.js";
import { featureRoutes } from "../../lib/routes.js";
import type { ReleaseIntents } from "../orders/index.js";
import { accountDeletedMail, checkDeletion, deleteAccount } from "./delete-account.js";

export interface AccountDeletionOptions {
  mailer: Mailer;
  /** Cancels (or refunds) the payment intents of the unpaid orders removed: the payments feature's. */
  releaseIntents: ReleaseIntents;
}

/**
 * DELETE /api/me: the signed-in customer deletes their own account (delete-account.ts). Registered
 * in app.ts after the payments provider exists, which the removed orders' intents are cancelled by.
 */
export const accountDeletionRoutes = featureRoutes<AccountDeletionOptions>(
  ["accounts"],
  async (app, route, { mailer, releaseIntents }) => {
    app.delete(
      "/api/me",
      route.user({
        summary:
          "Delete the signed-in account (customers): confirmed with its password (an account without one: a sign-in within the last 10 minutes) and, where it has a second factor, a step-up in the last 10 minutes (403 step-up-required). Unpaid orders are removed (stock back, intents cancelled); paid orders, invoices and credit notes are kept; reviews show 'Former customer'. 409 for an admin.",
        body: deleteAccountSchema,
        response: { 204: z.null() },
        problems: [403, 409, 429],
      }),
      async (request, reply) => {
        const user = request.user;
        const limit = { max: app.config.authRateLimitPerMinute, windowSeconds: 60 };
        await checkDeletion(app.db, app.auth, user, request.body, limit);
        const { removedOrders, email } = await deleteAccount(app.db, app.catalogCache, user.id);
        // After commit, as the Remove route does: a provider that cannot be reached leaves an intent
        // open, and a payment that still succeeds on it finds no order and is refunded (payments).
        await releaseIntents(removedOrders, "order_removed");
        // Told to the address, counted on its hourly cap like the password-changed mail; not awaited.
        await claimRecipient(app.db, email, app.config.mail.perRecipientPerHour, { always: true });
        mailer
          .send({ to: email, ...accountDeletedMail(app.config.publicUrl, new Date()) })
          .catch((error: unknown) => app.log.error({ err: error }, "account-deleted mail failed"));
        // The session row went with the account; the browser's cookies are cleared too.
        const cookies = (await app.auth.$context).authCookies;
        for (const { name, attributes } of Object.values(cookies)) {
          const secure = attributes.secure ? "; Secure" : "";
          reply.header("set-cookie", `${name}=; Max-Age=0; Path=/; HttpOnly; SameSite=Lax${secure}`);
        }
        request.log.info(
          { userId: user.id, removedOrders: removedOrders.length },
          "account deleted by its owner",
        );
        return reply.code(204).send(null);
      },
    );
  },
);
