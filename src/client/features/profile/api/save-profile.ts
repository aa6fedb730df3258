import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { z } from "zod";
import type { Profile, profileInputSchema } from "../../../../shared/accounts.js";
import { api } from "../../../lib/api.js";
import { profileKeys } from "./keys.js";

type ProfileValues = z.output<typeof profileInputSchema>;
/** create: POST, refused when a profile exists; update: PUT, refused when none exists yet. */
export type ProfileMode = "create" | "update";

function saveProfile({ mode, values }: { mode: ProfileMode; values: ProfileValues }): Promise<Profile> {
  return api<Profile>("/api/profile", { method: mode === "create" ? "POST" : "PUT", json: values });
}

export function useSaveProfile() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveProfile,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: profileKeys.all }),
  });
}
