import { z } from "zod";
import { ADDRESS_MAX_LINES, NAME_MAX_LENGTH, PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from "./constants.js";
import { accountMessages } from "./messages/accounts.js";
import { profileMessages } from "./messages/profile.js";
import { companyNameSchema, companyTaxIdSchema } from "./pricing.js";
import { requiredText } from "./text.js";

/** The product's (docs/product.md) simple email pattern. */
const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
/** 8 to 20 characters from letters, digits and !#$@^%&?, with an uppercase, a lowercase and a digit. */
const PASSWORD_PATTERN = /^(?=.*[a-z])(?=.*[A-Z])(?=.*\d)[A-Za-z\d!#$@^%&?]{8,20}$/;

const m = accountMessages;

/**
 * What breaks a line or steers a terminal: the control characters (C0 and C1: tab, CR, LF, NEL…)
 * and Unicode's line and paragraph separators. A name holding one printed as several invoice
 * lines ("Mallory⏎Seller VAT ID: …⏎PAID - TOTAL DUE: $0", issue 28), so a name, a city, any field
 * of one line, refuses them.
 */
const LINE_BREAKING = /[\p{Cc}\u2028\u2029]/u;
const isOneLine = (text: string) => !LINE_BREAKING.test(text);

/**
 * A delivery address: lines (LF or CRLF), at most ADDRESS_MAX_LINES of them, and no other control
 * character. `required` and `max` are the form's own message and length.
 */
export function addressSchema(required: string, max: number) {
  const lines = (text: string) => text.split(/\r?\n/);
  return requiredText(required, max)
    .refine((text) => lines(text).every(isOneLine), m.addressControl)
    .refine((text) => lines(text).length <= ADDRESS_MAX_LINES, m.addressTooManyLines);
}

const emailSchema = requiredText(m.emailRequired, 254, m.emailInvalid)
  .regex(EMAIL_PATTERN, m.emailInvalid)
  .transform((e) => e.toLowerCase());

export const passwordSchema = z
  .string({ error: m.passwordRequired })
  .min(1, m.passwordRequired)
  .min(PASSWORD_MIN_LENGTH, m.passwordLength)
  .max(PASSWORD_MAX_LENGTH, m.passwordPattern)
  .regex(PASSWORD_PATTERN, m.passwordPattern);

export const phoneSchema = requiredText(m.phoneRequired, 20, m.phoneInvalid).regex(
  /^\+?[0-9][0-9 ()-]{5,19}$/,
  m.phoneInvalid,
);

export const signUpSchema = z.object({
  name: requiredText(m.nameRequired, NAME_MAX_LENGTH, m.nameTooLong).refine(isOneLine, m.nameOneLine),
  email: emailSchema,
  password: passwordSchema,
  phone: phoneSchema,
});

export const signInSchema = z.object({
  email: emailSchema,
  password: z.string({ error: m.passwordRequired }).min(1, m.passwordRequired).max(128),
});

export const resetRequestSchema = z.object({ email: emailSchema });

export const newPasswordSchema = z.object({ password: passwordSchema });

/**
 * Profile's Change password (issue 34): the current password, and the new one by the spec's rules
 * and texts, typed twice. The server takes `currentPassword` and `newPassword` (auth-routes.ts) and
 * names the new one's field errors `password`, as here.
 */
export const changePasswordSchema = z
  .object({
    currentPassword: signInSchema.shape.password,
    password: passwordSchema,
    confirm: z.string(),
  })
  .refine((values) => values.password === values.confirm, {
    message: m.passwordsDiffer,
    path: ["confirm"],
  });

export const ROLES = ["user", "admin"] as const;
export type Role = (typeof ROLES)[number];

export const meSchema = z.object({
  id: z.string(),
  name: z.string(),
  email: z.string(),
  phone: z.string(),
  role: z.enum(ROLES),
  /** Booking needs it (docs/product.md): set by the mailed link, or by Google for its accounts. */
  emailVerified: z.boolean(),
});

/** Who is signed in, if anyone: a visitor is an answer too, not an error. */
export const sessionSchema = z.object({ user: meSchema.nullable() });

export const profileInputSchema = z.object({
  address: addressSchema(profileMessages.addressRequired, 200),
  city: z.string().trim().min(1, profileMessages.cityRequired).max(100).refine(isOneLine, m.cityOneLine),
  phone: phoneSchema,
  /** The company the customer books for, and its tax ID: prefilled on the booking form. */
  companyName: companyNameSchema.optional(),
  companyTaxId: companyTaxIdSchema.optional(),
});
export type ProfileInput = z.input<typeof profileInputSchema>;

export const profileSchema = z.object({
  name: z.string(),
  email: z.string(),
  address: z.string(),
  city: z.string(),
  phone: z.string(),
  companyName: z.string(),
  companyTaxId: z.string(),
  exists: z.boolean(),
});
export type Profile = z.infer<typeof profileSchema>;
