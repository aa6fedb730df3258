import type { QueryClient } from "@tanstack/react-query";
import type { DeleteAccountInput } from "../../../../shared/account-deletion.js";
import { api } from "../../../lib/api.js";
import { sessionQueryKey } from "../../../lib/auth.js";
import { useApiMutation } from "../../../lib/use-api-mutation.js";

function deleteAccount(input: DeleteAccountInput): Promise<void> {
  // A 403 step-up-required (an account with a second factor) is answered by the dashboard's
  // step-up dialog, and the request sent again once the factor is proved (lib/api.ts).
  return api<void>("/api/me", { method: "DELETE", json: input });
}

/** Deletes the signed-in account (DELETE /api/me); the caller then leaves and forgets it (forgetAccount). */
export function useDeleteAccount() {
  return useApiMutation(deleteAccount);
}

/**
 * Once the account is gone the browser is signed out: the cached user is forgotten, and every
 * cached answer with it, since all of them were the account's. Called after leaving the signed-in
 * area, so its guard does not send the visitor to the sign-in page first.
 */
export function forgetAccount(queryClient: QueryClient): void {
  queryClient.setQueryData(sessionQueryKey, null);
  queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== sessionQueryKey[0] });
}
