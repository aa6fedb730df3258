import { secondFactorMessages as m } from "../../shared/messages/second-factor.js";
import { api } from "./api.js";

/**
 * The second factor's calls shared by the sign-in's second step, the step-up dialog and the
 * profile (docs/product.md, "Second factors"). The WebAuthn library loads only when a passkey is
 * used, so no page pays for it up front.
 */

export type CodeKind = "app" | "backup";

/** Proves a code: the sign-in's second step (with its pending cookie), or a step-up when signed in. */
export function verifyCode(kind: CodeKind, code: string): Promise<unknown> {
  const path = kind === "app" ? "verify-totp" : "verify-backup-code";
  return api<unknown>(`/api/auth/two-factor/${path}`, { method: "POST", json: { code } });
}

/** Whether passkeys can be used here (a browser with WebAuthn, on a secure origin). */
export const passkeysSupported = () => typeof window !== "undefined" && "PublicKeyCredential" in window;

/** A passkey request the person cancelled or let time out: not an error to report as a failure. */
export class PasskeyCancelled extends Error {}

async function webAuthn() {
  return import("@simplewebauthn/browser");
}

const cancelled = (error: unknown) =>
  error instanceof Error && (error.name === "NotAllowedError" || error.name === "AbortError");

/**
 * One WebAuthn ceremony: the server's options, the browser's credential (a cancel or a timeout as
 * PasskeyCancelled), and the server's check of it.
 */
async function ceremony<Options, Credential>(
  optionsPath: string,
  start: (options: Options) => Promise<Credential>,
  verifyPath: string,
  extra: Record<string, unknown> = {},
): Promise<void> {
  const options = await api<Options>(optionsPath);
  let response: Credential;
  try {
    response = await start(options);
  } catch (error) {
    if (cancelled(error)) throw new PasskeyCancelled(m.passkeyCancelled);
    throw error;
  }
  await api<unknown>(verifyPath, { method: "POST", json: { response, ...extra } });
}

/** Signs in with a passkey, or proves it for a step-up: better-auth makes the session. */
export async function provePasskey(): Promise<void> {
  const { startAuthentication } = await webAuthn();
  await ceremony(
    "/api/auth/passkey/generate-authenticate-options",
    (optionsJSON: Parameters<typeof startAuthentication>[0]["optionsJSON"]) =>
      startAuthentication({ optionsJSON }),
    "/api/auth/passkey/verify-authentication",
  );
}

/** Registers a new passkey for the signed-in account, under the name its owner gives. */
export async function addPasskey(name: string): Promise<void> {
  const { startRegistration } = await webAuthn();
  const query = new URLSearchParams(name ? { name } : {});
  await ceremony(
    `/api/auth/passkey/generate-register-options?${query}`,
    (optionsJSON: Parameters<typeof startRegistration>[0]["optionsJSON"]) =>
      startRegistration({ optionsJSON }),
    "/api/auth/passkey/verify-registration",
    name ? { name } : {},
  );
}
