import { MAX_UPLOAD_BYTES } from "../../shared/constants.js";
import { uploadMessages } from "../../shared/messages/uploads.js";
import type { UploadResult } from "../../shared/uploads.js";
import { ApiError, api } from "./api.js";

const ACCEPTED_TYPES = ["image/jpeg", "image/png", "image/webp", "image/gif"];

/** What the file input offers; the server judges the content itself. */
export const IMAGE_ACCEPT = ACCEPTED_TYPES.join(",");

/** A quick check before uploading, so an obviously wrong file gets its message at once. */
export function checkImageFile(file: File): string | undefined {
  if (file.size > MAX_UPLOAD_BYTES) return uploadMessages.tooLarge;
  if (file.type && !ACCEPTED_TYPES.includes(file.type)) return uploadMessages.unsupported;
  return undefined;
}

/** Uploads one image (multipart field `image`) and returns its URL on the shop. */
export async function uploadImage(file: File): Promise<string> {
  const problem = checkImageFile(file);
  if (problem) throw new ApiError(400, problem, { detail: problem });
  const form = new FormData();
  form.append("image", file);
  const result = await api<UploadResult>("/api/uploads", { method: "POST", body: form });
  return result.url;
}
