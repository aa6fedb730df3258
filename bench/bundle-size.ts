// Bundle: what the home page must download before it can run, from the Vite manifest of a build.
// Shared by the bundle budget test (e2e/bundle-budget.spec.ts) and `npm run bench`.
import { readFileSync } from "node:fs";
import path from "node:path";
import { gzipSync } from "node:zlib";

export const JS_BUDGET_BYTES = 150 * 1024;
export const CSS_BUDGET_BYTES = 30 * 1024;
/** Code that only some signed-in pages need: it must never be part of the first download. */
const ROUTE_ONLY_CODE = /^(features\/(payments|admin|users)\/|app\/layout\/dashboard-layout\.tsx$)/;
/** @stripe/stripe-js loads Stripe.js from here; its presence means the Stripe code is in the chunk. */
const STRIPE_MARKER = "js.stripe.com";

interface ManifestChunk {
  file: string;
  src?: string;
  isEntry?: boolean;
  imports?: string[];
  css?: string[];
}

export interface InitialBundle {
  /** Manifest keys of the entry and everything it imports statically. */
  chunks: string[];
  jsFiles: string[];
  cssFiles: string[];
  jsGzipBytes: number;
  cssGzipBytes: number;
  /** Route-only modules in the first download (or not split out at all), and Stripe if it is there. */
  misplaced: string[];
}

const gzipSize = (file: string) => gzipSync(readFileSync(file), { level: 9 }).length;
const readCode = (clientDir: string, jsFiles: string[]) =>
  jsFiles.map((f) => readFileSync(path.join(clientDir, f), "utf8"));

/**
 * The route modules the client router loads lazily (its `import("../features/…")` and
 * `import("./layout/…")` calls) that belong to signed-in areas, as manifest keys (paths under
 * src/client, where the router's folder is app/).
 */
export function routeOnlyModules(routerFile: string): string[] {
  const source = readFileSync(routerFile, "utf8");
  const lazy = [...source.matchAll(/import\("(\.\.?\/[^"]+)\.js"\)/g)].map(
    (m) => `${path.posix.join("app", m[1] ?? "")}.tsx`,
  );
  return lazy.filter((key) => ROUTE_ONLY_CODE.test(key));
}

/**
 * The entry of `clientDir`'s build and its static imports: what the browser loads for any first
 * page. `routeOnly` modules must each be a chunk of their own outside that download.
 */
export function initialBundle(clientDir: string, routeOnly: string[]): InitialBundle {
  const manifest = JSON.parse(readFileSync(path.join(clientDir, ".vite/manifest.json"), "utf8")) as Record<
    string,
    ManifestChunk
  >;
  // The app (index.html) and the starter of prerendered landing pages (boot.ts): both are loaded
  // for a first visit to the home page.
  const entries = Object.entries(manifest).filter(([, chunk]) => chunk.isEntry);
  if (!manifest["index.html"]?.isEntry) throw new Error("index.html is no entry of the manifest");

  const chunks = new Set<string>();
  const pending = entries.map(([key]) => key);
  while (pending.length > 0) {
    const key = pending.pop() ?? "";
    if (chunks.has(key)) continue;
    chunks.add(key);
    pending.push(...(manifest[key]?.imports ?? []));
  }
  const jsFiles = [...new Set([...chunks].map((key) => manifest[key]?.file ?? ""))].filter((f) =>
    f.endsWith(".js"),
  );
  const cssFiles = [...new Set([...chunks].flatMap((key) => manifest[key]?.css ?? []))];

  // Without a chunk of its own, a module was bundled into whatever imports it statically.
  const misplaced = routeOnly.filter((key) => {
    const chunk = manifest[key];
    return !chunk || chunks.has(key) || jsFiles.includes(chunk.file);
  });
  const initialJs = readCode(clientDir, jsFiles);
  if (initialJs.some((code) => code.includes(STRIPE_MARKER))) misplaced.push("@stripe/stripe-js");

  return {
    chunks: [...chunks],
    jsFiles,
    cssFiles,
    jsGzipBytes: jsFiles.reduce((sum, f) => sum + gzipSize(path.join(clientDir, f)), 0),
    cssGzipBytes: cssFiles.reduce((sum, f) => sum + gzipSize(path.join(clientDir, f)), 0),
    misplaced,
  };
}

/**
 * Which of `texts` the JavaScript files (paths under `clientDir`) carry, written as a minifier may
 * write a string: as it is, or with its non-ASCII characters escaped ("…" as \u2026).
 */
export function textsInCode(clientDir: string, jsFiles: string[], texts: string[]): string[] {
  const code = readCode(clientDir, jsFiles).join("\n");
  const escaped = (text: string) =>
    text.replace(/[^\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
  return texts.filter((text) => code.includes(text) || code.includes(escaped(text)));
}
