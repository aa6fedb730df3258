/** Every reviews query starts with `all`: the home page's newest and the Reviews page's pages. */
export const reviewKeys = {
  all: ["reviews"] as const,
  newest: (limit: number) => [...reviewKeys.all, "newest", { limit }] as const,
  pages: () => [...reviewKeys.all, "pages"] as const,
  /** The signed-in author's own, with the shop's reasons for hidden ones. */
  mine: () => [...reviewKeys.all, "mine"] as const,
  /** Moderation (admin): customers' reports, and the hidden reviews. */
  reports: () => [...reviewKeys.all, "reports"] as const,
  hidden: () => [...reviewKeys.all, "hidden"] as const,
};
