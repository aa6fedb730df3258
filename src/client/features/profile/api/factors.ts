import { useQuery } from "@tanstack/react-query";
import type { Factors } from "../../../../shared/second-factor.js";
import { api } from "../../../lib/api.js";
import { addPasskey } from "../../../lib/second-factor.js";
import { useApiMutation } from "../../../lib/use-api-mutation.js";
import { profileKeys } from "./keys.js";

/** The signed-in user's second factors (GET /api/account/factors). */
export function useFactors(userId: string) {
  return useQuery({
    queryKey: profileKeys.factors(userId),
    queryFn: ({ signal }) => api<Factors>("/api/account/factors", { signal }),
  });
}

export type Enrolment = { totpURI: string; backupCodes: string[] };

/** Starts the app's enrolment with the password: its key (as an otpauth:// URI) and backup codes. */
export function useStartApp() {
  return useApiMutation((password: string) =>
    api<Enrolment>("/api/auth/two-factor/enable", { method: "POST", json: { password } }),
  );
}

/** The app's first code turns it on (the session is replaced, and counts as proved). */
export function useConfirmApp(userId: string) {
  return useApiMutation(
    (code: string) => api<unknown>("/api/auth/two-factor/verify-totp", { method: "POST", json: { code } }),
    { invalidates: [profileKeys.factors(userId), profileKeys.sessions(userId)] },
  );
}

export function useNewBackupCodes(userId: string) {
  return useApiMutation(
    (password: string) =>
      api<{ backupCodes: string[] }>("/api/auth/two-factor/generate-backup-codes", {
        method: "POST",
        json: { password },
      }),
    { invalidates: [profileKeys.factors(userId)] },
  );
}

/** Removes the app with the password, or (none given) after a step-up the server asks for. */
export function useRemoveApp(userId: string) {
  return useApiMutation(
    (password: string | undefined) =>
      api<unknown>("/api/auth/two-factor/disable", { method: "POST", json: password ? { password } : {} }),
    { invalidates: [profileKeys.factors(userId), profileKeys.sessions(userId)] },
  );
}

export function useAddPasskey(userId: string) {
  return useApiMutation((name: string) => addPasskey(name), { invalidates: [profileKeys.factors(userId)] });
}

export function useRemovePasskey(userId: string) {
  return useApiMutation(
    ({ id, password }: { id: string; password: string | undefined }) =>
      api<unknown>("/api/auth/passkey/delete-passkey", {
        method: "POST",
        json: password ? { id, password } : { id },
      }),
    { invalidates: [profileKeys.factors(userId), profileKeys.sessions(userId)] },
  );
}
