import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const FEATURES = path.resolve(import.meta.dirname, "features");

describe("routes only route", () => {
  // Issue 29: a background job or worker has one owner, its plugin registered in app.ts, so that
  // a routes file declares routes and nothing else (orders' expiry and the uploads' encoder, spool
  // and sweeper were once started inside their routes plugins).
  const routesFiles = readdirSync(FEATURES, { recursive: true, encoding: "utf8" }).filter((file) =>
    /(^|[-/])routes\.ts$/.test(file),
  );

  it.each(routesFiles)("%s starts no job, worker or hook of the app's life", (file) => {
    const source = readFileSync(path.join(FEATURES, file), "utf8");
    const starts = [
      /addHook\(\s*["'](onReady|onClose|preClose|onListen)["']/,
      /\b(startPeriodicJob|runInBackground|setInterval)\(/,
      /\bnew (Worker|ImageEncoder|UploadSpool)\(/,
      /\bfork\(/,
      /\.gauge\(/,
    ];
    expect(starts.filter((start) => start.test(source)).map(String)).toEqual([]);
  });

  it("finds the routes files", () => {
    expect(routesFiles).toContain(path.join("orders", "routes.ts"));
    expect(routesFiles).toContain(path.join("uploads", "routes.ts"));
  });
});
