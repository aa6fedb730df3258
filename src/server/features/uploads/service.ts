import { eq } from "drizzle-orm";
import type { Db } from "../../db/client.js";
import { images } from "../../db/schema/index.js";
import type { UploadBytes } from "./encoder.js";
import type { StorableImage } from "./reencode.js";

const STORED_TYPE = "image/webp";

const IMAGE_FILE = /^([a-f0-9]{64})\.webp$/;

export const imageUrl = (key: string) => `/api/images/${key}.webp`;

/** The key in an image URL's last segment, or undefined when it cannot be one of ours. */
export function imageKeyOf(file: string): string | undefined {
  return IMAGE_FILE.exec(file)?.[1];
}

/**
 * Stores an upload that `encode` (encodeForStorage, in the image worker) re-encoded and named.
 * Returns the URL it is served from.
 */
export async function storeImage(
  db: Db,
  encode: (bytes: UploadBytes) => Promise<StorableImage>,
  userId: string,
  bytes: UploadBytes,
): Promise<string> {
  const image = await encode(bytes);
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
    .onConflictDoNothing();
  return imageUrl(image.key);
}

export async function findImage(db: Db, key: string) {
  const [row] = await db
    .select({ key: images.key, contentType: images.contentType, data: images.data })
    .from(images)
    .where(eq(images.key, key));
  return row;
}
