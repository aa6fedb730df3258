import type { z } from "zod";
import type {
  EmailChangeRequest,
  emailChangedSchema,
  emailChangeRequestedSchema,
} from "../../../../shared/email-change.js";
import { api } from "../../../lib/api.js";
import { sessionQueryKey } from "../../../lib/auth.js";
import { useApiMutation } from "../../../lib/use-api-mutation.js";
import { profileKeys } from "./keys.js";

type Requested = z.infer<typeof emailChangeRequestedSchema>;
type Changed = z.infer<typeof emailChangedSchema>;

/** Asks to change the signed-in user's email: a link goes to the new address (nothing changes yet). */
export function useRequestEmailChange() {
  return useApiMutation((input: EmailChangeRequest) =>
    api<Requested>("/api/account/email-change", { method: "POST", json: input }),
  );
}

/**
 * Follows the mailed link: the email changes. Who is signed in (the email shown everywhere) and the
 * profile are stale after it; the account's other sessions have ended.
 */
export function useConfirmEmailChange() {
  return useApiMutation(
    (token: string) => api<Changed>("/api/account/email-change/confirm", { method: "POST", json: { token } }),
    { invalidates: [sessionQueryKey, profileKeys.all] },
  );
}
