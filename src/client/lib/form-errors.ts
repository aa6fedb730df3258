import type { FieldValues, Path, UseFormSetError } from "react-hook-form";
import { commonMessages } from "../../shared/messages/common.js";
import { ApiError } from "./api.js";

/**
 * `message`, and for a failure on the shop's side (a 5xx, 503 included) the request's id after it,
 * so that a customer can quote it and support can find the log line.
 */
export function withReference(message: string, error: unknown): string {
  if (!(error instanceof ApiError && error.status >= 500 && error.requestId)) return message;
  return `${message} ${commonMessages.reference(error.requestId)}`;
}

/** What to tell the user about a failed call: the server's detail when there is one. */
export function problemMessage(error: unknown): string {
  if (error instanceof ApiError) return withReference(error.detail ?? error.title, error);
  return commonMessages.networkError;
}

/**
 * Shows a failed call in the form: the server's per-field messages under their fields, anything
 * else as the form's own error (`errors.root.server`), which the next submit clears.
 */
export function showServerError<T extends FieldValues>(
  error: unknown,
  fields: readonly Path<T>[],
  setError: UseFormSetError<T>,
): void {
  const fieldErrors =
    error instanceof ApiError
      ? error.errors.filter((e) => (fields as readonly string[]).includes(e.path))
      : [];
  if (fieldErrors.length === 0) {
    setError("root.server", { type: "server", message: problemMessage(error) });
    return;
  }
  for (const [index, fieldError] of fieldErrors.entries()) {
    setError(
      fieldError.path as Path<T>,
      { type: "server", message: fieldError.message },
      { shouldFocus: index === 0 },
    );
  }
}
