import multipart from "@fastify/multipart";
import type { FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { MAX_UPLOAD_BYTES } from "../../../shared/constants.js";
import { uploadMessages } from "../../../shared/messages/uploads.js";
import { uploadResultSchema } from "../../../shared/uploads.js";
import { matchesEtag, notModifiedSchema, sendNotModified } from "../../lib/etag.js";
import {
  badRequest,
  ForeignError,
  notFound,
  type ProblemTable,
  payloadTooLarge,
  ServiceUnavailable,
  TooManyRequests,
  unsupportedMediaType,
} from "../../lib/problem.js";
import { problemResponses } from "../../lib/schemas.js";
import { UploadsInFlight } from "./in-flight.js";
import { reserveUpload } from "./quota.js";
import { findImage, imageKeyOf, storeImage } from "./service.js";
import type { SpooledUpload } from "./spool.js";

const IMAGE_FIELD = "image";
/** Room for the multipart framing and a few small fields around a file of the maximum size. */
const MAX_REQUEST_BYTES = MAX_UPLOAD_BYTES + 64 * 1024;
/** Seconds to wait when the account's uploads at once are taken: about one upload's time. */
const IN_FLIGHT_RETRY_SECONDS = 2;
/** Seconds to wait when the spool is full: the uploads in it are received and encoded by then. */
const SPOOL_FULL_RETRY_SECONDS = 5;
/** Content-addressed, so a URL's bytes never change. */
const IMMUTABLE = "public, max-age=31536000, immutable";

const imageParamsSchema = z.object({ file: z.string() });

/** What reading an upload's body threw (@fastify/multipart, busboy, the spool), answered below. */
const UPLOAD_BODY = "upload-body";
const tooManyParts = () => payloadTooLarge(uploadMessages.tooManyParts);
/** @fastify/multipart's limits in the shop's words (plugins/errors.ts reads the table). */
export const uploadBodyProblems: ProblemTable = {
  source: UPLOAD_BODY,
  codes: {
    FST_REQ_FILE_TOO_LARGE: () => payloadTooLarge(uploadMessages.tooLarge),
    FST_FILES_LIMIT: tooManyParts,
    FST_FIELDS_LIMIT: tooManyParts,
    FST_PARTS_LIMIT: tooManyParts,
  },
  // Everything else comes from a malformed or interrupted body: the client's doing, not ours.
  otherwise: () => badRequest(uploadMessages.unreadable),
};

export const uploadRoutes: FastifyPluginAsyncZod = async (app) => {
  const tags = ["uploads"];
  // The encoder and the spool are the upload workers' (workers.ts, registered in app.ts).
  const { imageEncoder: encoder, uploadSpool: spool } = app;
  const inFlight = new UploadsInFlight(app.config.uploadConcurrencyPerAccount);

  /** The day's quota of the signed-in account: admins add products, and have a quota of their own. */
  const quotaOf = (request: FastifyRequest) =>
    app.config.uploadQuota[request.user.role === "admin" ? "admin" : "user"];

  // Registered in this encapsulated plugin only: no other route accepts multipart bodies.
  await app.register(multipart, {
    limits: {
      fileSize: MAX_UPLOAD_BYTES,
      files: 1,
      fields: 4,
      fieldSize: 1024,
      fieldNameSize: 100,
      parts: 5,
      headerPairs: 20,
    },
  });
  /**
   * Reads the whole body, writing its `image` file to the spool as it arrives, and refuses anything
   * else. The caller releases the spooled file.
   */
  async function readImage(request: FastifyRequest): Promise<SpooledUpload> {
    if (!request.isMultipart()) throw unsupportedMediaType(uploadMessages.notMultipart);
    let image: SpooledUpload | undefined;
    try {
      // Reading to the end lets busboy report a second file or too many fields.
      for await (const part of request.parts()) {
        if (part.type !== "file") continue;
        if (part.fieldname !== IMAGE_FIELD) {
          part.file.resume();
          continue;
        }
        image = await spool.receive(part.file);
        // Cut off at MAX_UPLOAD_BYTES: refused, never stored short.
        if (part.file.truncated) throw payloadTooLarge(uploadMessages.tooLarge);
      }
      if (!image?.size) throw badRequest(uploadMessages.missing);
      return image;
    } catch (error) {
      if (image) await spool.release(image.file);
      throw ForeignError.of(UPLOAD_BODY, error);
    }
  }

  app.post(
    "/api/uploads",
    {
      onRequest: [
        // Multipart bodies bypass Fastify's bodyLimit, so an oversized declared length is refused up front.
        async (request) => {
          if (Number(request.headers["content-length"]) > MAX_REQUEST_BYTES)
            throw payloadTooLarge(uploadMessages.tooLarge);
        },
        app.requireUser,
      ],
      schema: {
        tags,
        summary: "Upload an image (multipart field `image`): checked by content, re-encoded to WebP",
        consumes: ["multipart/form-data"],
        response: { 201: uploadResultSchema, ...problemResponses(400, 401, 403, 413, 415, 429, 503) },
      },
    },
    async (request, reply) => {
      const user = request.user.id;
      // The most this body can bring to the spool: what it declares, or the limit when it declares
      // nothing (chunked); Node never reads past a declared length.
      const declared = Number(request.headers["content-length"]);
      const most = Number.isSafeInteger(declared) && declared >= 0 ? declared : MAX_REQUEST_BYTES;
      // Everything below is decided before the body is read, so a refusal costs no disk: the
      // account's places (its uploads under way), the spool's room, then the day's quota, which
      // counts the upload in flight as the most its file can be and settles it once received.
      const place = inFlight.take(user);
      if (!place)
        throw new TooManyRequests(
          uploadMessages.tooManyAtOnce(app.config.uploadConcurrencyPerAccount),
          IN_FLIGHT_RETRY_SECONDS,
        );
      let url: string;
      try {
        const room = spool.reserve(most);
        if (!room) throw new ServiceUnavailable(uploadMessages.spoolFull, SPOOL_FULL_RETRY_SECONDS);
        try {
          const reservation = await reserveUpload(
            app.db,
            user,
            quotaOf(request),
            Math.min(most, MAX_UPLOAD_BYTES),
          );
          try {
            const upload = await readImage(request);
            try {
              await reservation.settle(upload.size);
              url = await storeImage(app.db, await encoder.encode(upload.file, user), user);
            } finally {
              await spool
                .release(upload.file)
                .catch((cause: unknown) => request.log.error({ err: cause }, "spooled upload not removed"));
            }
          } catch (error) {
            // Not fatal: the account then has one upload fewer left today.
            await reservation
              .release()
              .catch((cause: unknown) => request.log.error({ err: cause }, "upload quota not given back"));
            throw error;
          }
        } finally {
          room();
        }
      } finally {
        place();
      }
      return reply.code(201).send({ url });
    },
  );

  app.get(
    "/api/images/:file",
    {
      schema: {
        tags,
        summary: "An uploaded image, served with immutable caching",
        params: imageParamsSchema,
        response: {
          200: {
            description: "The image bytes",
            // Sent as a Buffer, which Fastify never serializes; the meta is for the OpenAPI document.
            content: {
              "image/webp": { schema: z.instanceof(Buffer).meta({ type: "string", format: "binary" }) },
            },
          },
          304: notModifiedSchema,
          ...problemResponses(404),
        },
      },
    },
    async (request, reply) => {
      const key = imageKeyOf(request.params.file);
      const image = key ? await findImage(app.db, key) : undefined;
      if (!image) throw notFound(uploadMessages.notFound);
      const etag = `"${image.key}"`;
      reply.header("cache-control", IMMUTABLE).header("etag", etag);
      if (matchesEtag(request.headers["if-none-match"], etag)) return sendNotModified(reply);
      return reply
        .header("x-content-type-options", "nosniff")
        .header("content-disposition", `inline; filename="${request.params.file}"`)
        .type(image.contentType)
        .send(image.data);
    },
  );
};
