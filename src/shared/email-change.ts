import { z } from "zod";
import { signInSchema, signUpSchema } from "./accounts.js";

/**
 * Change email (issue 34, item 2; docs/product.md, "Your account"): the signed-in customer asks with
 * the new address and the current password, and the change takes effect when the link mailed to
 * the new address is followed (its page posts the token).
 */
export const emailChangeRequestSchema = z.object({
  /** The sign-up's rules and texts ("Email is required", "Provide a valid email"), lower-cased. */
  newEmail: signUpSchema.shape.email,
  password: signInSchema.shape.password,
});
export type EmailChangeRequest = z.input<typeof emailChangeRequestSchema>;

/** The answer to a request: when its link stops working (the same whether or not a link went out). */
export const emailChangeRequestedSchema = z.object({ expiresAt: z.string() });

/** A token as the link carries it: 43 characters of base64url; anything else is refused. */
export const emailChangeConfirmSchema = z.object({ token: z.string().min(1).max(200) });

/** The account's email once changed. */
export const emailChangedSchema = z.object({ email: z.string() });
