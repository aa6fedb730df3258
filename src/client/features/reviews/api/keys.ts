/** Every reviews query starts with `all`: the home page's newest and the Reviews page's pages. */
export const reviewKeys = {
  all: ["reviews"] as const,
  newest: (limit: number) => [...reviewKeys.all, "newest", { limit }] as const,
  pages: () => [...reviewKeys.all, "pages"] as const,
};
