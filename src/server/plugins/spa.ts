import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import fastifyStatic from "@fastify/static";
import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import { sendProblem } from "./errors.js";

/**
 * The build's landing pages (vite.config.ts): index.html with preload links for one route each,
 * keyed by that route's path.
 */
function landingPages(staticDir: string): Map<string, Buffer> {
  const dir = path.join(staticDir, "pages");
  if (!existsSync(dir)) return new Map();
  return new Map(
    readdirSync(dir)
      .filter((file) => file.endsWith(".html"))
      .map((file) => {
        const name = file.slice(0, -".html".length);
        return [name === "index" ? "/" : `/${name}`, readFileSync(path.join(dir, file))];
      }),
  );
}

/**
 * Serves the built SPA: hashed assets cached for a year, everything else revalidated,
 * client routes answered with their landing page or index.html, unknown /api paths with a 404
 * problem.
 */
async function spa(app: FastifyInstance, opts: { staticDir: string }) {
  const indexFile = path.join(opts.staticDir, "index.html");
  const hasClient = existsSync(indexFile);
  if (hasClient) {
    await app.register(fastifyStatic, {
      root: opts.staticDir,
      wildcard: false,
      index: false,
      // The build writes .br and .gz beside every text file (vite.config.ts): sent as they are to
      // browsers that take them, and never served under their own names.
      preCompressed: true,
      // Landing pages are sent for their routes below, not under their file names.
      globIgnore: ["**/*.br", "**/*.gz", "pages/**"],
      cacheControl: false,
      setHeaders: (reply, filePath) => {
        const immutable = filePath.includes(`${path.sep}assets${path.sep}`);
        reply.header(
          "cache-control",
          immutable ? "public, max-age=31536000, immutable" : "public, max-age=3600, must-revalidate",
        );
      },
    });
  } else {
    app.log.warn(`No built client in ${opts.staticDir}; run "npm run build" to serve the shop's pages.`);
  }
  const indexHtml = hasClient ? readFileSync(indexFile) : undefined;
  const pages = hasClient ? landingPages(opts.staticDir) : new Map<string, Buffer>();

  app.setNotFoundHandler((request, reply) => {
    const pathname = request.url.split("?")[0] ?? "/";
    const isApi = pathname === "/api" || pathname.startsWith("/api/");
    const isAsset = /\.[a-z0-9]+$/i.test(pathname);
    if (!isApi && !isAsset && indexHtml && (request.method === "GET" || request.method === "HEAD")) {
      const page = pages.get(pathname.length > 1 ? pathname.replace(/\/$/, "") : pathname) ?? indexHtml;
      return reply.type("text/html; charset=utf-8").header("cache-control", "no-cache").send(page);
    }
    return sendProblem(reply, {
      status: 404,
      title: "Not Found",
      detail: `No route for ${request.method} ${pathname}.`,
    });
  });
}

export default fp(spa, { name: "spa" });
