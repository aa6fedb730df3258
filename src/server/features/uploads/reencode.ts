// Checking and re-encoding uploads with sharp: run by the image worker (image-worker.ts) only, so
// the server process itself never loads libvips.
import { createHash } from "node:crypto";
import sharp, { type Metadata, type SharpOptions } from "sharp";
import { uploadMessages } from "../../../shared/messages/uploads.js";
import { payloadTooLarge, unsupportedMediaType } from "../../lib/problem.js";

/** Width × height an upload may declare; far beyond any product photo, far below a decompression bomb. */
const MAX_INPUT_PIXELS = 40_000_000;
/** Longest side of a stored image: sharp enough for a product page, small enough to serve from PostgreSQL. */
export const MAX_IMAGE_SIDE = 1600;
const WEBP_QUALITY = 82;

type ImageFormat = "jpeg" | "png" | "gif" | "webp";

const startsWith = (bytes: Buffer, signature: string, at = 0) =>
  bytes.subarray(at, at + signature.length).equals(Buffer.from(signature, "latin1"));

/**
 * The format the file's own bytes announce. Only these four signatures reach sharp, so its other
 * loaders (SVG, PDF, TIFF, HEIF…) never parse an uploaded file.
 */
function sniffImageFormat(bytes: Buffer): ImageFormat | undefined {
  if (startsWith(bytes, "\xff\xd8\xff")) return "jpeg";
  if (startsWith(bytes, "\x89PNG\r\n\x1a\n")) return "png";
  if (startsWith(bytes, "GIF87a") || startsWith(bytes, "GIF89a")) return "gif";
  if (startsWith(bytes, "RIFF") && startsWith(bytes, "WEBP", 8)) return "webp";
  return undefined;
}

/** Sharp's own refusal when the declared size exceeds `limitInputPixels`. */
const isPixelLimitError = (error: unknown) => error instanceof Error && /pixel limit/i.test(error.message);

/** sharp options shared by the metadata read and the decode, so both stop at the pixel limit. */
const inputOptions: SharpOptions = {
  limitInputPixels: MAX_INPUT_PIXELS,
  // Phone cameras and editors often write files with recoverable warnings; only real damage refuses.
  failOn: "error",
};

interface EncodedImage {
  data: Buffer;
  width: number;
  height: number;
}

/**
 * Checks that the bytes are a JPEG, PNG, GIF or WebP of a sane pixel size, then re-encodes them:
 * upright from EXIF, metadata stripped, first frame only, at most MAX_IMAGE_SIDE a side, WebP.
 * The server runs it in its image worker (encoder.ts), below the event loop's priority.
 */
async function reencodeImage(bytes: Buffer): Promise<EncodedImage> {
  const sniffed = sniffImageFormat(bytes);
  if (!sniffed) throw unsupportedMediaType(uploadMessages.unsupported);

  // The header alone: a decompression bomb is refused here before any pixel is decoded.
  let metadata: Metadata;
  try {
    metadata = await sharp(bytes, inputOptions).metadata();
  } catch (error) {
    if (isPixelLimitError(error)) throw payloadTooLarge(uploadMessages.tooManyPixels);
    throw unsupportedMediaType(uploadMessages.unsupported);
  }
  if (metadata.format !== sniffed) throw unsupportedMediaType(uploadMessages.unsupported);
  if (metadata.width * metadata.height > MAX_INPUT_PIXELS)
    throw payloadTooLarge(uploadMessages.tooManyPixels);

  try {
    const { data, info } = await sharp(bytes, inputOptions)
      .autoOrient()
      .resize(MAX_IMAGE_SIDE, MAX_IMAGE_SIDE, { fit: "inside", withoutEnlargement: true })
      .webp({ quality: WEBP_QUALITY })
      .toBuffer({ resolveWithObject: true });
    return { data, width: info.width, height: info.height };
  } catch (error) {
    if (isPixelLimitError(error)) throw payloadTooLarge(uploadMessages.tooManyPixels);
    throw unsupportedMediaType(uploadMessages.unsupported);
  }
}

export interface StorableImage extends EncodedImage {
  /** SHA-256 of the stored bytes: the same image uploaded twice (by anyone) is one row and one URL. */
  key: string;
}

/** Re-encodes an upload and names it by its content: what the image worker does (encoder.ts). */
export async function encodeForStorage(bytes: Buffer): Promise<StorableImage> {
  const image = await reencodeImage(bytes);
  return { ...image, key: createHash("sha256").update(image.data).digest("hex") };
}
