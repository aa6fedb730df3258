/** Every profile query starts with `all`; the user's id follows, so one user never sees another's. */
export const profileKeys = {
  all: ["profile"] as const,
  of: (userId: string) => [...profileKeys.all, userId] as const,
};
