import { createReadStream, createWriteStream } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import path from "node:path";
import { Readable, Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import {
  IMPORT_MAX_LINES,
  IMPORT_MAX_MEGABYTES,
  importQuerySchema,
  importReportSchema,
} from "../../../shared/catalog-csv.js";
import { catalogCsvMessages } from "../../../shared/messages/catalog-csv.js";
import { csvAnswer, sendCsv } from "../../lib/csv.js";
import { payloadTooLarge, unsupportedMediaType } from "../../lib/problem.js";
import { featureRoutes } from "../../lib/routes.js";
import { actorOf } from "../activity/index.js";
import { changeCatalog } from "./changes.js";
import { catalogCsv } from "./csv-export.js";
import { importCatalog } from "./csv-import.js";

/**
 * The catalog's CSV import and export (admin). The import's body is text/csv: the parser here
 * hands the request on unread (Fastify's 1 MB body limit does not apply), the route spools it to a
 * file under DATA_DIR (at most IMPORT_MAX_MEGABYTES), and the import reads that as a stream
 * (csv-import.ts), so the file is never held whole in memory.
 */
/** Writes the upload to `file`, refusing it (413) past IMPORT_MAX_MEGABYTES. */
async function spool(body: Readable, file: string): Promise<void> {
  let bytes = 0;
  const limit = IMPORT_MAX_MEGABYTES * 1024 * 1024;
  await pipeline(
    body,
    new Transform({
      transform(chunk: Buffer, _encoding, done) {
        bytes += chunk.length;
        if (bytes > limit) done(payloadTooLarge(catalogCsvMessages.refused.tooLarge(IMPORT_MAX_MEGABYTES)));
        else done(null, chunk);
      },
    }),
    createWriteStream(file),
  );
}

export const catalogCsvRoutes = featureRoutes(["catalog"], async (app, route) => {
  app.addContentTypeParser("text/csv", (_request, payload, done) => done(null, payload));

  app.post(
    "/api/products/import",
    route.admin({
      summary: "Import products from CSV: a dry run, or applied with ?apply=true (admin)",
      description: `Body: text/csv with a header naming the columns sku, name, category, price, quantity, description, threshold, and optionally image and price_tiers (volume prices, "50:22;100:19"; left out, they stay as they are); at most ${IMPORT_MAX_LINES.toLocaleString("en-US")} lines and ${IMPORT_MAX_MEGABYTES} MB. Creates or updates by SKU; a line whose product already reads so is left alone, so applying twice changes nothing more. Bad lines are left out and reported with their line numbers.`,
      querystring: importQuerySchema,
      response: { 200: importReportSchema },
      problems: [413, 415],
    }),
    async (request) => {
      // Only text/csv reaches here as a stream; any other body was parsed (JSON) and is no import.
      const body = request.body;
      if (!(body instanceof Readable)) throw unsupportedMediaType(catalogCsvMessages.refused.notCsv);
      // The upload is spooled to a file first, at the network's pace: read straight off the
      // request, an apply of 100,000 lines (a minute or more) outlived the server's requestTimeout
      // (30 s), which cut it off half done. The file is read back as a stream, as the request was.
      const dir = await mkdtemp(path.join(app.config.dataDir, "catalog-import-"));
      try {
        const file = path.join(dir, "upload.csv");
        await spool(body, file);
        return await changeCatalog(app.catalogCache, (change) =>
          importCatalog(app.db, createReadStream(file), {
            apply: request.query.apply,
            adminId: request.user.id,
            actor: actorOf(request),
            change,
          }),
        );
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    },
  );

  app.get(
    "/api/products/export.csv",
    route.admin({
      summary: "The whole catalog as CSV, by SKU, streamed (admin)",
      produces: ["text/csv"],
      response: {
        200: csvAnswer("RFC 4180 CSV in the import's columns; formula-like cells start with '"),
      },
    }),
    async (request, reply) => {
      const csv = await catalogCsv(app.reads.of(request));
      return sendCsv(reply, "catalog", csv);
    },
  );
});
