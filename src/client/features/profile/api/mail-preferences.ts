import type { MailPreferences } from "../../../../shared/mail-preferences.js";
import { api } from "../../../lib/api.js";
import { useApiMutation } from "../../../lib/use-api-mutation.js";
import { useAccountQuery } from "./account-query.js";
import { profileKeys } from "./keys.js";

/** Which mails the signed-in user gets (GET /api/me/mail-preferences). */
export function useMailPreferences(userId: string) {
  return useAccountQuery<MailPreferences>(profileKeys.mailPreferences(userId), "/api/me/mail-preferences");
}

/** Saves them (PUT), writing the answer into the cache. */
export function useSaveMailPreferences(userId: string) {
  return useApiMutation(
    (values: MailPreferences) =>
      api<MailPreferences>("/api/me/mail-preferences", { method: "PUT", json: values }),
    {
      onSuccess: (saved, _values, queryClient) =>
        queryClient.setQueryData(profileKeys.mailPreferences(userId), saved),
    },
  );
}

/**
 * The one-click unsubscribe, from the page a mail's link opens (no session needed): the token
 * rides in the address, as in the mail's List-Unsubscribe header.
 */
export function useUnsubscribeReminders() {
  return useApiMutation((token: string) =>
    api<MailPreferences>(`/api/mail/unsubscribe?${new URLSearchParams({ token })}`, { method: "POST" }),
  );
}
