import { z } from "zod";
import { accountDeletionMessages as m } from "./messages/account-deletion.js";

/**
 * DELETE /api/me (docs/product.md, "Deleting your account"): the account's password, which the
 * server checks again; absent only for an account that has none (Google sign-in), which must
 * have signed in within the last 10 minutes instead.
 */
export const deleteAccountSchema = z.object({
  password: z.string({ error: m.passwordRequired }).min(1, m.passwordRequired).max(128).optional(),
});
export type DeleteAccountInput = z.infer<typeof deleteAccountSchema>;

/** How recent a sign-in proves the person at the keyboard for an account without a password. */
export const FRESH_SIGN_IN_MINUTES = 10;

/** The profile card's form: the password, for an account that has one (the server checks it again). */
export const deleteAccountFormSchema = z.object({
  password: z.string().min(1, m.passwordRequired).max(128),
});
