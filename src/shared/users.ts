import { z } from "zod";
import { ROLES } from "./accounts.js";
import { userMessages } from "./messages/users.js";
import { twoWayPageSchema, twoWayQuerySchema } from "./paging.js";

/** A row of the admin's users tables (GET /api/users). */
export const userSchema = z.object({
  id: z.string(),
  name: z.string(),
  email: z.string(),
  phone: z.string(),
  role: z.enum(ROLES),
  createdAt: z.string(),
});
export type User = z.infer<typeof userSchema>;

export const USER_SEARCH_MAX_LENGTH = 100;
/**
 * From this many characters a search matches anywhere in a name or email (a trigram index serves
 * it). A shorter one matches the start of the name, of a word in it, or of the email: one or two
 * letters are found in nearly every address, so "anywhere" would match everyone and help no one.
 */
export const USER_SEARCH_SUBSTRING_MIN = 3;

/**
 * GET /api/users: newest accounts first, a page after `cursor` (the next page) or before `before`
 * (the previous one), filtered by a search of name or email and by role.
 */
export const userListQuerySchema = twoWayQuerySchema.extend({
  // A search of only spaces and punctuation finds nothing an index can look up: it is refused.
  search: z
    .string()
    .trim()
    .max(USER_SEARCH_MAX_LENGTH, userMessages.searchTooLong(USER_SEARCH_MAX_LENGTH))
    .refine((text) => text === "" || /[\p{L}\p{N}]/u.test(text), userMessages.searchNeedsLetters)
    .optional(),
  role: z.enum(ROLES).optional(),
});
export type UserListParams = z.output<typeof userListQuerySchema>;

/** A page of users; `prevCursor` leads to the page before it (null on the first). */
export const userPageSchema = twoWayPageSchema(userSchema);
export type UserPage = z.infer<typeof userPageSchema>;

// better-auth owns the ids (UUIDs today); only their size is checked here.
export const userIdParamsSchema = z.object({ id: z.string().min(1).max(64) });

/** PUT /api/users/:id/role: Make Admin / Remove Admin. */
export const roleInputSchema = z.object({ role: z.enum(ROLES) });
export type RoleInput = z.infer<typeof roleInputSchema>;
