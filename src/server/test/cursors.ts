/**
 * A list cursor holding `value`, encoded as lib/paging.ts's encodeCursor encodes one: for the
 * tests' forged cursors, which no page would hand out.
 */
export function forgedCursor(value: unknown): string {
  return Buffer.from(JSON.stringify(value)).toString("base64url");
}
