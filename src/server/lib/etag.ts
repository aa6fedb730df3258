/**
 * Whether an If-None-Match header names this ETag (or any, with `*`). RFC 9110 compares
 * If-None-Match weakly, so a `W/` prefix does not matter.
 */
export function matchesEtag(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  return ifNoneMatch
    .split(",")
    .map((tag) => tag.trim().replace(/^W\//, ""))
    .some((tag) => tag === "*" || tag === etag);
}
