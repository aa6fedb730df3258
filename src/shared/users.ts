import { z } from "zod";
import { ROLES } from "./accounts.js";

/** A row of the admin's users table (GET /api/users). */
export const userSchema = z.object({
  id: z.string(),
  name: z.string(),
  email: z.string(),
  phone: z.string(),
  role: z.enum(ROLES),
  createdAt: z.string(),
});
export type User = z.infer<typeof userSchema>;

export const userListSchema = z.array(userSchema);

// better-auth owns the ids (UUIDs today); only their size is checked here.
export const userIdParamsSchema = z.object({ id: z.string().min(1).max(64) });

/** PUT /api/users/:id/role: Make Admin / Remove Admin. */
export const roleInputSchema = z.object({ role: z.enum(ROLES) });
export type RoleInput = z.infer<typeof roleInputSchema>;
