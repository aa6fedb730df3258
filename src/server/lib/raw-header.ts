import type { IncomingMessage } from "node:http";

/**
 * One request header by its lower-case name, read from the raw header lines, repeated lines joined
 * with ", " as node:http joins them. `req.headers` builds an object of every header the first time
 * it is asked for: work the catalog's early answers (plugins/early-answers.ts), which read two or
 * three headers, do not need.
 */
export function rawHeader(req: IncomingMessage, lowerCaseName: string): string | undefined {
  const lines = req.rawHeaders;
  let value: string | undefined;
  for (let i = 0; i < lines.length; i += 2) {
    const name = lines[i] as string;
    if (name.length !== lowerCaseName.length || name.toLowerCase() !== lowerCaseName) continue;
    const line = lines[i + 1] as string;
    value = value === undefined ? line : `${value}, ${line}`;
  }
  return value;
}
