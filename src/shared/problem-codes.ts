/**
 * The `code`s of problems the client acts on, beyond showing their words: the client branches on
 * these, never on a message's text, which may be reworded. Apart from problem.ts so that a page can
 * name a code without loading zod (src/client/lib/api.ts loads the schema only on a failure).
 */
export const problemCodes = {
  /** A reset or verification token that is wrong, used or expired (better-auth's own code). */
  invalidToken: "INVALID_TOKEN",
  /** Booking from an account whose email is not verified (server: features/orders/service.ts). */
  emailNotVerified: "email-not-verified",
  /** A product an admin archived: its page says it is no longer sold (features/catalog). */
  productArchived: "product-archived",
  /** Deleting a product that was ordered: archive it instead (features/catalog). */
  productOrdered: "product-ordered",
  /** An admin without a second factor, where one is required: the client opens enrolment (accounts). */
  secondFactorEnrolment: "second-factor-enrolment",
  /** An action that needs a second factor proved in the last 10 minutes: the client asks, then retries. */
  stepUpRequired: "step-up-required",
  /** A discount code that does not apply to the booking (422; the reason in its words). */
  discountCodeRefused: "discount-code-refused",
  /** Change email: the link was used, replaced by a newer request, or never made (features/accounts). */
  emailChangeInvalid: "email-change-invalid",
  /** Change email: the link's validity ended (EMAIL_CHANGE_LINK_HOURS). */
  emailChangeExpired: "email-change-expired",
  /** Change email: another account took the address before the link was followed. */
  emailTaken: "email-taken",
} as const;
