import type { z } from "zod";
import type { Profile, profileInputSchema } from "../../../../shared/accounts.js";
import { api } from "../../../lib/api.js";
import { useApiMutation } from "../../../lib/use-api-mutation.js";
import { profileKeys } from "./keys.js";

type ProfileValues = z.output<typeof profileInputSchema>;
/** create: POST, refused when a profile exists; update: PUT, refused when none exists yet. */
export type ProfileMode = "create" | "update";

function saveProfile({ mode, values }: { mode: ProfileMode; values: ProfileValues }): Promise<Profile> {
  return api<Profile>("/api/profile", { method: mode === "create" ? "POST" : "PUT", json: values });
}

export function useSaveProfile() {
  return useApiMutation(saveProfile, { invalidates: [profileKeys.all] });
}
