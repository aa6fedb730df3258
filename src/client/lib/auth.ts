import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api } from "./api.js";

export type SessionUser = {
  id: string;
  name: string;
  email: string;
  role: "user" | "admin";
  /** Booking needs it (docs/product.md). */
  emailVerified: boolean;
};

export type Session = {
  user: SessionUser | null;
  isPending: boolean;
};

export const sessionQueryKey = ["session"] as const;

/** The signed-in user, or null for a visitor (GET /api/session answers 200 either way). */
export async function getSessionUser(): Promise<SessionUser | null> {
  const { user } = await api<{ user: SessionUser | null }>("/api/session");
  return user;
}

export function useSession(): Session {
  const query = useQuery({
    queryKey: sessionQueryKey,
    queryFn: getSessionUser,
    staleTime: 5 * 60_000,
    retry: false,
  });
  return { user: query.data ?? null, isPending: query.isPending };
}

/** Ends the session on the server and forgets the cached user. */
export function useSignOut() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api<unknown>("/api/auth/sign-out", { method: "POST", json: {} }),
    onSettled: () => {
      queryClient.setQueryData(sessionQueryKey, null);
      return queryClient.invalidateQueries();
    },
  });
}
