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
  HttpProblem,
  notFound,
  payloadTooLarge,
  unsupportedMediaType,
} from "../../lib/problem.js";
import { problemResponses } from "../../lib/schemas.js";
import { ImageEncoder } from "./encoder.js";
import { checkQuotaLeft, reserveUpload } from "./quota.js";
import { findImage, imageKeyOf, storeImage } from "./service.js";
import { startImageSweeper } from "./sweep.js";

const IMAGE_FIELD = "image";
/** Room for the multipart framing and a few small fields around a file of the maximum size. */
const MAX_REQUEST_BYTES = MAX_UPLOAD_BYTES + 64 * 1024;
/** Content-addressed, so a URL's bytes never change. */
const IMMUTABLE = "public, max-age=31536000, immutable";

const imageParamsSchema = z.object({ file: z.string() });

export const uploadRoutes: FastifyPluginAsyncZod = async (app) => {
  const tags = ["uploads"];
  const encoder = new ImageEncoder();
  app.addHook("onClose", async () => encoder.close());
  let sweeper: ReturnType<typeof startImageSweeper> | undefined;
  app.addHook("onReady", async () => {
    sweeper = startImageSweeper(app.db, app.config.imageSweepIntervalSeconds, app.log);
  });
  app.addHook("onClose", async () => sweeper?.stop());

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
  const { FieldsLimitError, FilesLimitError, PartsLimitError, RequestFileTooLargeError } =
    app.multipartErrors;

  /** Translates what @fastify/multipart and busboy throw into the shop's problems. */
  function uploadProblem(error: unknown): HttpProblem {
    if (error instanceof HttpProblem) return error;
    if (error instanceof RequestFileTooLargeError) return payloadTooLarge(uploadMessages.tooLarge);
    if (
      error instanceof FilesLimitError ||
      error instanceof FieldsLimitError ||
      error instanceof PartsLimitError
    )
      return payloadTooLarge(uploadMessages.tooManyParts);
    // Everything else comes from a malformed or interrupted body: the client's doing, not ours.
    return badRequest(uploadMessages.unreadable);
  }

  /**
   * Reads the whole body and returns the bytes of its `image` file as they arrived, in pieces
   * (UploadBytes), refusing anything else.
   */
  async function readImage(request: FastifyRequest): Promise<Buffer[]> {
    if (!request.isMultipart()) throw unsupportedMediaType(uploadMessages.notMultipart);
    let image: Buffer[] | undefined;
    try {
      // Reading to the end lets busboy report a second file or too many fields.
      for await (const part of request.parts()) {
        if (part.type !== "file") continue;
        if (part.fieldname !== IMAGE_FIELD) {
          part.file.resume();
          continue;
        }
        image = [];
        for await (const piece of part.file) image.push(piece);
        // Cut off at MAX_UPLOAD_BYTES: refused, never stored short.
        if (part.file.truncated) throw payloadTooLarge(uploadMessages.tooLarge);
      }
    } catch (error) {
      throw uploadProblem(error);
    }
    if (!image?.some((piece) => piece.length > 0)) throw badRequest(uploadMessages.missing);
    return image;
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
        // An account whose day is used up is refused before its body is read.
        async (request) => checkQuotaLeft(app.db, request.user.id, quotaOf(request)),
      ],
      schema: {
        tags,
        summary: "Upload an image (multipart field `image`): checked by content, re-encoded to WebP",
        consumes: ["multipart/form-data"],
        response: { 201: uploadResultSchema, ...problemResponses(400, 401, 403, 413, 415, 429) },
      },
    },
    async (request, reply) => {
      const bytes = await readImage(request);
      const user = request.user.id;
      const size = bytes.reduce((sum, piece) => sum + piece.length, 0);
      // Counted before the work, so uploads sent at once cannot all pass; given back unless stored.
      const reservation = await reserveUpload(app.db, user, quotaOf(request), size);
      let url: string;
      try {
        url = await storeImage(app.db, (image) => encoder.encode(image, user), user, bytes);
      } catch (error) {
        // Not fatal: the account then has one upload fewer left today.
        await reservation
          .release()
          .catch((cause: unknown) => request.log.error({ err: cause }, "upload quota not given back"));
        throw error;
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
