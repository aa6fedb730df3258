// `npm start`: builds what is missing or out of date, then runs the server.
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

const root = path.resolve(import.meta.dirname, "..");

function newestMtime(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestMtime(full));
    else newest = Math.max(newest, statSync(full).mtimeMs);
  }
  return newest;
}

function stale(output, sources) {
  if (!existsSync(output)) return true;
  const built = statSync(output).mtimeMs;
  return sources.some((s) => existsSync(s) && newestMtime(s) > built);
}

function run(script) {
  const result = spawnSync("npm", ["run", "--silent", script], { cwd: root, stdio: "inherit" });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

const src = (p) => path.join(root, "src", p);
if (stale(path.join(root, "dist/client/index.html"), [src("client"), src("shared")])) run("build:client");
if (stale(path.join(root, "dist/server/main.js"), [src("server"), src("shared")])) run("build:server");

// The server runs in this process, so it receives SIGINT and SIGTERM itself and stops gracefully.
process.setSourceMapsEnabled(true);
await import(pathToFileURL(path.join(root, "dist/server/main.js")).href);
