import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";

/**
 * Writes `files` (paths relative to the tree, and their text) into a new directory outside the
 * repository, so that a failed run cannot leave a planted file in src; returns the directory.
 */
export function plantTree(prefix: string, files: Record<string, string>): string {
  const root = mkdtempSync(path.join(os.tmpdir(), prefix));
  for (const [file, source] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    writeFileSync(path.join(root, file), source);
  }
  return root;
}
