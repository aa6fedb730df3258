import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import fastifyStatic from "@fastify/static";
import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import { sendProblem } from "./errors.js";

/**
 * Serves the built SPA: hashed assets cached for a year, everything else revalidated,
 * client routes answered with index.html, unknown /api paths with a 404 problem.
 */
async function spa(app: FastifyInstance, opts: { staticDir: string }) {
  const indexFile = path.join(opts.staticDir, "index.html");
  const hasClient = existsSync(indexFile);
  if (hasClient) {
    await app.register(fastifyStatic, {
      root: opts.staticDir,
      wildcard: false,
      index: false,
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

  app.setNotFoundHandler((request, reply) => {
    const pathname = request.url.split("?")[0] ?? "/";
    const isApi = pathname === "/api" || pathname.startsWith("/api/");
    const isAsset = /\.[a-z0-9]+$/i.test(pathname);
    if (!isApi && !isAsset && indexHtml && (request.method === "GET" || request.method === "HEAD")) {
      return reply.type("text/html; charset=utf-8").header("cache-control", "no-cache").send(indexHtml);
    }
    return sendProblem(reply, {
      status: 404,
      title: "Not Found",
      detail: `No route for ${request.method} ${pathname}.`,
    });
  });
}

export default fp(spa, { name: "spa" });
