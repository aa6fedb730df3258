import { z } from "zod";

/** POST /api/uploads → where the re-encoded image is served. */
export const uploadResultSchema = z.object({ url: z.string() });
export type UploadResult = z.infer<typeof uploadResultSchema>;
