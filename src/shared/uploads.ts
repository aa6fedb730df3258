import { z } from "zod";

/** POST /api/uploads → where the re-encoded image is served. */
export const uploadResultSchema = z.object({ url: z.string() });
export type UploadResult = z.infer<typeof uploadResultSchema>;

/** Where an uploaded image is served: the SHA-256 of its re-encoded WebP bytes. */
export const UPLOADED_IMAGE_PATTERN = /^\/api\/images\/[a-f0-9]{64}\.webp$/;
