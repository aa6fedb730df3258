import type { FieldValues, Path, UseFormSetError } from "react-hook-form";
import { commonMessages } from "../../shared/messages/common.js";
import { ApiError } from "./api.js";

/** What to tell the user about a failed call: the server's detail when there is one. */
export function problemMessage(error: unknown): string {
  if (error instanceof ApiError) return error.detail ?? error.title;
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
