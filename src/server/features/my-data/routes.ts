import { Readable } from "node:stream";
import { z } from "zod";
import { myDataMessages } from "../../../shared/messages/my-data.js";
import { MY_DATA_PATH, myDataFilename } from "../../../shared/my-data.js";
import { unauthorized } from "../../lib/problem.js";
import { enforceRateLimit } from "../../lib/rate-limit.js";
import { featureRoutes } from "../../lib/routes.js";
import { zipStream } from "../../lib/zip.js";
import { myDataEntries } from "./service.js";

const HOUR_SECONDS = 60 * 60;

/**
 * Download my data (docs/product.md): the signed-in account's own, and no one else's; there is no id
 * in the path, so there is nothing to name another account by, admins included.
 */
export const myDataRoutes = featureRoutes(["accounts"], async (app, route) => {
  const limit = { max: app.config.dataDownloadsPerHour, windowSeconds: HOUR_SECONDS };
  app.get(
    MY_DATA_PATH,
    route.user({
      summary:
        "Download my data: a ZIP of data.json (account, profile, orders with payments, refunds, invoice and credit note numbers, reviews, back-in-stock subscriptions, mails) and orders.csv",
      produces: ["application/zip"],
      response: {
        200: {
          description: "A ZIP sent as it is written, named gearhouse-data-<today, UTC>.zip",
          // A stream, which Fastify never serializes; the meta is for the OpenAPI document.
          content: {
            "application/zip": {
              schema: z.instanceof(Readable).meta({ type: "string", format: "binary" }),
            },
          },
        },
      },
      problems: [429],
    }),
    async (request, reply) => {
      const { user } = request;
      // Each download reads the whole history: a few an hour per account is plenty for a person.
      await enforceRateLimit(app.db, `my-data:${user.id}`, limit, (seconds) =>
        myDataMessages.rateLimited(limit.max, seconds),
      );
      const now = new Date();
      const entries = await myDataEntries(app.db, user.id, {
        mailRetentionDays: app.config.retention.outboxDays,
        now,
      });
      // The account was removed between the session's check and this read.
      if (!entries) throw unauthorized();
      // One archive entry's text at a time: the next page is read once the client has taken this.
      const body = Readable.from(zipStream(entries, now), { highWaterMark: 1 });
      return reply
        .header("cache-control", "private, no-store")
        .header("x-content-type-options", "nosniff")
        .header("content-disposition", `attachment; filename="${myDataFilename(now)}"`)
        .type("application/zip")
        .send(body);
    },
  );
});
