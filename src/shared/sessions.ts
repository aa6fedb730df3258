import { z } from "zod";

/** The most sessions the profile lists: the newest by last use; the rest are counted. */
export const SESSION_LIST_LIMIT = 50;

/** One signed-in session of the user, as their profile lists it. */
const signedInSessionSchema = z.object({
  id: z.string(),
  /** "Firefox on Linux": read from the browser's user agent; null when it says nothing known. */
  browser: z.string().nullable(),
  address: z.string().nullable(),
  /** When the session was last used (to within a few minutes). */
  lastSeenAt: z.string(),
  signedInAt: z.string(),
  /** The session of the request that asked. */
  current: z.boolean(),
});
export type SignedInSession = z.infer<typeof signedInSessionSchema>;

export const sessionListSchema = z.object({
  items: z.array(signedInSessionSchema),
  /** How many sessions are signed in, the listed ones included. */
  total: z.number().int().min(0),
});
export type SessionList = z.infer<typeof sessionListSchema>;

export const sessionIdParamsSchema = z.object({ id: z.string().min(1).max(64) });

/** How many sessions an end call ended. */
export const endedSessionsSchema = z.object({ ended: z.number().int().min(0) });
export type EndedSessions = z.infer<typeof endedSessionsSchema>;
