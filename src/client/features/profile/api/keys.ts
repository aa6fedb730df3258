/** Every profile query starts with `all`; the user's id follows, so one user never sees another's. */
export const profileKeys = {
  all: ["profile"] as const,
  of: (userId: string) => [...profileKeys.all, userId] as const,
  /** The user's signed-in sessions. */
  sessions: (userId: string) => [...profileKeys.of(userId), "sessions"] as const,
  /** The user's second factors. */
  factors: (userId: string) => [...profileKeys.of(userId), "factors"] as const,
  /** Which mails the user gets. */
  mailPreferences: (userId: string) => [...profileKeys.of(userId), "mail-preferences"] as const,
};
