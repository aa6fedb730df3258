import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

/**
 * The server stores user text literally (hostile-input.test.ts); the client must then show it as
 * text. React escapes whatever it renders, so the only ways to turn user text into markup or code
 * are the escape hatches below: none may appear in the client's source.
 */

const CLIENT = path.resolve("src/client");
const HATCHES: [string, RegExp][] = [
  ["dangerouslySetInnerHTML", /dangerouslySetInnerHTML/],
  ["innerHTML / outerHTML", /\.(inner|outer)HTML\b/],
  ["insertAdjacentHTML", /insertAdjacentHTML/],
  ["document.write", /document\.write(ln)?\s*\(/],
  ["eval or new Function", /\beval\s*\(|new\s+Function\s*\(/],
  ["a javascript: URL", /["'`]javascript:/i],
  ["createContextualFragment", /createContextualFragment/],
];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === "public" ? [] : sourceFiles(full);
    // The client's own tests are not shipped; they spell out hostile values on purpose.
    if (/\.test\.tsx?$/.test(entry.name)) return [];
    return /\.(tsx?|jsx?|html)$/.test(entry.name) ? [full] : [];
  });
}

describe("the client renders user text as text", () => {
  it("reads a sizeable client (so the scan looks at the right folder)", () => {
    expect(sourceFiles(CLIENT).length).toBeGreaterThan(50);
  });

  for (const [name, pattern] of HATCHES) {
    it(`uses no ${name} anywhere in src/client`, () => {
      const hits = sourceFiles(CLIENT).flatMap((file) =>
        readFileSync(file, "utf8")
          .split("\n")
          .flatMap((line, i) => (pattern.test(line) ? [`${path.relative(CLIENT, file)}:${i + 1}`] : [])),
      );
      expect(hits).toEqual([]);
    });
  }
});
