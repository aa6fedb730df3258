/** Refusals of a list's page links (src/shared/paging.ts). */
export const pagingMessages = {
  badCursor: "This page link is no longer valid. Start again from the first page.",
  twoCursors: "Ask for the page after one row or before one row, not both.",
} as const;
