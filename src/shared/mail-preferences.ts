import { z } from "zod";

/**
 * Which mails a customer gets (Profile, "Mails"). Receipts, shipping and refund mails, the booking
 * mail and the expiry notice always go; `reminderMails` turns off the optional ones: the payment
 * reminder and the back-in-stock mail (server/features/mail/outbox.ts, OPTIONAL_MAILS).
 */
export const mailPreferencesSchema = z.object({ reminderMails: z.boolean() });
export type MailPreferences = z.infer<typeof mailPreferencesSchema>;

/** The signed token of a one-click unsubscribe link (its user id and HMAC, at most this long). */
const UNSUBSCRIBE_TOKEN_MAX_LENGTH = 200;
export const unsubscribeQuerySchema = z.object({
  token: z.string().min(1).max(UNSUBSCRIBE_TOKEN_MAX_LENGTH),
});
