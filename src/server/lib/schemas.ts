import { EXACT_COUNT_LIMIT, LIST_PAGE_SIZE, MAX_LIST_PAGE_SIZE } from "../../shared/paging.js";
import { problemSchema } from "../../shared/problem.js";

/** Declares problem+json answers for the given statuses in a route's response schema. */
export function problemResponses<const S extends number>(...statuses: S[]): Record<S, typeof problemSchema> {
  return Object.fromEntries(statuses.map((s) => [s, problemSchema])) as Record<S, typeof problemSchema>;
}

/**
 * A cursor-paged list's paging, for its OpenAPI description (shared/paging.ts): `limit` of what
 * `rows` names, from where `from` says a page starts.
 */
export const cursorPagingText = (rows: string, from = "after `cursor` (a page's `nextCursor`)") =>
  `Cursor paging: \`limit\` ${rows} (default ${LIST_PAGE_SIZE}, at most ${MAX_LIST_PAGE_SIZE}) ${from}; a forged cursor is a 400.`;

/** What a list's `total` says (shared/paging.ts), for its OpenAPI description; `counted` names what it counts. */
export const boundedTotalText = (counted?: string) =>
  `\`total\` counts ${counted ? `${counted} ` : ""}exactly up to ${EXACT_COUNT_LIMIT.toLocaleString("en-US")}, otherwise says "more than" (\`exact: false\`).`;
