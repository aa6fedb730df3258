import type { EndedSessions, SessionList } from "../../../../shared/sessions.js";
import { api } from "../../../lib/api.js";
import { useApiMutation } from "../../../lib/use-api-mutation.js";
import { useAccountQuery } from "./account-query.js";
import { profileKeys } from "./keys.js";

/** The signed-in user's sessions (GET /api/account/sessions), this one marked. */
export function useSessions(userId: string) {
  return useAccountQuery<SessionList>(profileKeys.sessions(userId), "/api/account/sessions");
}

export function useEndSession(userId: string) {
  return useApiMutation(
    (id: string) => api<void>(`/api/account/sessions/${encodeURIComponent(id)}`, { method: "DELETE" }),
    { invalidates: [profileKeys.sessions(userId)] },
  );
}

export function useEndOtherSessions(userId: string) {
  return useApiMutation(
    () => api<EndedSessions>("/api/account/sessions/end-others", { method: "POST", json: {} }),
    { invalidates: [profileKeys.sessions(userId)] },
  );
}
