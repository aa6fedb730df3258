import { crc32 } from "node:zlib";
import { eq } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import sharp from "sharp";
import type { Db } from "../db/client.js";
import { uploadQuotas } from "../db/schema/index.js";
import { multipartImage } from "./route-cases.js";
import { ORIGIN } from "./users.js";

/** A photo-like JPEG: noise does not compress, so it takes a real decode and encode. */
export const noisyJpeg = (width: number, height: number) =>
  sharp({
    create: {
      width,
      height,
      channels: 3,
      background: "#808080",
      noise: { type: "gaussian", mean: 128, sigma: 40 },
    },
  })
    .jpeg({ quality: 95 })
    .toBuffer();

/** A small PNG of one colour; `seed` makes each one a different image. */
export const tinyPng = (seed: number) =>
  sharp({
    create: {
      width: 8 + (seed % 16),
      height: 8 + Math.floor(seed / 16),
      channels: 3,
      background: { r: seed % 256, g: 40, b: 90 },
    },
  })
    .png()
    .toBuffer();

/** A PNG chunk: length, type, data and the CRC over type and data (PNG specification, 5.3). */
export function pngChunk(type: string, data: Buffer): Buffer {
  const body = Buffer.concat([Buffer.from(type, "latin1"), data]);
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/**
 * Settings that lift an account's daily upload limits and its uploads at once, for the tests of
 * something else (the sweep, the image worker's turns) that upload much from few accounts.
 */
export const UPLOADS_UNLIMITED = {
  UPLOAD_LIMIT_PER_DAY: "1000",
  UPLOAD_MB_PER_DAY: "500",
  ADMIN_UPLOAD_LIMIT_PER_DAY: "1000",
  UPLOAD_CONCURRENCY_PER_ACCOUNT: "100",
};

/** POST /api/uploads of `bytes` by the holder of `cookie`, as the shop's forms send it. */
export async function postUpload(
  app: FastifyInstance,
  cookie: string,
  bytes: Uint8Array,
  type = "image/png",
) {
  const body = await multipartImage(bytes, "photo", type);
  return app.inject({
    method: "POST",
    url: "/api/uploads",
    headers: { ...body.headers, origin: ORIGIN, cookie },
    payload: body.payload,
  });
}

/** The upload quota's row of `user`'s current day (features/uploads/quota.ts), if it has one. */
export async function uploadQuotaOf(db: Db, user: { id: string }) {
  const [row] = await db
    .select({ count: uploadQuotas.count, bytes: uploadQuotas.bytes })
    .from(uploadQuotas)
    .where(eq(uploadQuotas.userId, user.id));
  return row;
}
