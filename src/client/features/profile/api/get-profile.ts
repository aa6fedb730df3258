import { queryOptions, useQuery } from "@tanstack/react-query";
import type { Profile } from "../../../../shared/accounts.js";
import { api } from "../../../lib/api.js";
import { useSession } from "../../../lib/auth.js";
import { profileKeys } from "./keys.js";

function getProfile(signal?: AbortSignal): Promise<Profile> {
  return api<Profile>("/api/profile", { signal });
}

function profileQueryOptions(userId: string) {
  return queryOptions({
    queryKey: profileKeys.of(userId),
    queryFn: ({ signal }) => getProfile(signal),
  });
}

/** The signed-in user's profile (name and email from the account, address, city and phone). */
export function useProfile() {
  const { user } = useSession();
  return useQuery({ ...profileQueryOptions(user?.id ?? ""), enabled: Boolean(user) });
}
