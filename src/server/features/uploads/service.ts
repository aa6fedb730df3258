import { eq, sql } from "drizzle-orm";
import type { Db } from "../../db/client.js";
import { images } from "../../db/schema/index.js";
import type { StorableImage } from "./reencode.js";

const STORED_TYPE = "image/webp";

const IMAGE_FILE = /^([a-f0-9]{64})\.webp$/;

/** What comes before and after an image's key in its URL (UPLOADED_IMAGE_PATTERN in src/shared/uploads.ts). */
export const IMAGE_URL_PREFIX = "/api/images/";
export const IMAGE_URL_SUFFIX = ".webp";

const imageUrl = (key: string) => `${IMAGE_URL_PREFIX}${key}${IMAGE_URL_SUFFIX}`;

/** The key in an image URL's last segment, or undefined when it cannot be one of ours. */
export function imageKeyOf(file: string): string | undefined {
  return IMAGE_FILE.exec(file)?.[1];
}

/**
 * Stores an upload that the image worker (encodeForStorage) re-encoded and named. Returns the URL
 * it is served from. An image stored before, and perhaps unused since, has its
 * grace period begin anew (sweep.ts): the URL just given out must outlive the order or product
 * it is for.
 */
export async function storeImage(db: Db, image: StorableImage, userId: string): Promise<string> {
  await db
    .insert(images)
    .values({
      key: image.key,
      contentType: STORED_TYPE,
      data: image.data,
      width: image.width,
      height: image.height,
      byteSize: image.data.length,
      createdBy: userId,
    })
    .onConflictDoUpdate({ target: images.key, set: { releasedAt: sql`now()` } });
  return imageUrl(image.key);
}

export async function findImage(db: Db, key: string) {
  const [row] = await db
    .select({ key: images.key, contentType: images.contentType, data: images.data })
    .from(images)
    .where(eq(images.key, key));
  return row;
}
