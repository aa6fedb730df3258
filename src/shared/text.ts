import { z } from "zod";

/**
 * A text a form requires: trimmed, then refused with `required` when empty (or not a string at all)
 * and with `tooLong` (zod's own message unless given) past `max` characters. The forms' fields
 * refine it further (one line, a pattern…).
 */
export const requiredText = (required: string, max: number, tooLong?: string) =>
  z.string({ error: required }).trim().min(1, required).max(max, tooLong);
