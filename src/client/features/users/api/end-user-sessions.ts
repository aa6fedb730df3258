import type { EndedSessions } from "../../../../shared/sessions.js";
import { api } from "../../../lib/api.js";
import { useApiMutation } from "../../../lib/use-api-mutation.js";

/** An admin ends every session of a user (DELETE /api/users/:id/sessions). */
export function useEndUserSessions() {
  return useApiMutation((id: string) =>
    api<EndedSessions>(`/api/users/${encodeURIComponent(id)}/sessions`, { method: "DELETE" }),
  );
}
