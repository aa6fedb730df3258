import { z } from "zod";
import { secondFactorMessages as m } from "./messages/second-factor.js";

/** GET /api/account/factors: the account's second factors, as My Profile lists them. */
export const factorsSchema = z.object({
  app: z.object({ enabled: z.boolean(), backupCodesLeft: z.number().int() }),
  passkeys: z.array(
    z.object({ id: z.string(), name: z.string(), createdAt: z.string(), deviceType: z.string() }),
  ),
  /** Whether the account has a password (one signed up with Google has none). */
  hasPassword: z.boolean(),
  /** When this session last proved a factor, or null. */
  provedAt: z.string().nullable(),
});
export type Factors = z.infer<typeof factorsSchema>;

/** An app code (6 digits, spaces allowed as apps show them) or a backup code ("xxxxx-xxxxx"). */
export const factorCodeSchema = z
  .string({ error: m.codeRequired })
  .transform((v) => v.replace(/\s/g, ""))
  .pipe(z.string().min(1, m.codeRequired).max(32, m.codeInvalid));

/** A passkey's name as its owner gives it. */
export const passkeyNameSchema = z.string().trim().max(60).optional();

const base64url = z.string().max(16_384);
/**
 * A WebAuthn credential as the browser gives it (RegistrationResponseJSON or
 * AuthenticationResponseJSON): only these fields, each bounded, reach better-auth.
 */
export const webAuthnResponseSchema = z.object({
  id: z.string().min(1).max(1024),
  rawId: z.string().min(1).max(1024),
  type: z.literal("public-key"),
  authenticatorAttachment: z.enum(["platform", "cross-platform"]).optional(),
  clientExtensionResults: z
    .object({ credProps: z.object({ rk: z.boolean().optional() }).optional() })
    .default({}),
  response: z.object({
    clientDataJSON: base64url,
    attestationObject: base64url.optional(),
    authenticatorData: base64url.optional(),
    signature: base64url.optional(),
    userHandle: base64url.optional(),
    publicKey: base64url.optional(),
    publicKeyAlgorithm: z.number().int().optional(),
    transports: z.array(z.string().max(32)).max(10).optional(),
  }),
});
