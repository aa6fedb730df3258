import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { brotliCompressSync, gzipSync, constants as zlib } from "node:zlib";
import fastifyStatic from "@fastify/static";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import fp from "fastify-plugin";
import { isClientRoute } from "../../shared/client-routes.js";
import { putFirstInBody } from "../lib/html.js";
import { notFound } from "../lib/problem.js";

/** An HTML page as built, with the Brotli and gzip copies the build wrote beside it, if any. */
interface Page {
  identity: Buffer;
  br?: Buffer;
  gzip?: Buffer;
}

/**
 * A built page; with `bodyStart`, that markup is put first in its <body>, and the compressed copies
 * the build wrote are made again from the result (once, at start, at the build's levels).
 */
function readPage(file: string, bodyStart?: string): Page {
  const copy = (suffix: string) => (existsSync(file + suffix) ? readFileSync(file + suffix) : undefined);
  const built: Page = { identity: readFileSync(file), br: copy(".br"), gzip: copy(".gz") };
  if (!bodyStart) return built;
  const identity = Buffer.from(putFirstInBody(built.identity.toString(), bodyStart));
  return {
    identity,
    br:
      built.br &&
      brotliCompressSync(identity, { params: { [zlib.BROTLI_PARAM_QUALITY]: zlib.BROTLI_MAX_QUALITY } }),
    gzip: built.gzip && gzipSync(identity, { level: 9 }),
  };
}

/**
 * The build's landing pages (vite.config.ts): index.html with one route's prerendered markup and
 * preload links, keyed by that route's path.
 */
function landingPages(staticDir: string, bodyStart?: string): Map<string, Page> {
  const dir = path.join(staticDir, "pages");
  if (!existsSync(dir)) return new Map();
  return new Map(
    readdirSync(dir)
      .filter((file) => file.endsWith(".html"))
      .map((file) => {
        const name = file.slice(0, -".html".length);
        return [name === "index" ? "/" : `/${name}`, readPage(path.join(dir, file), bodyStart)];
      }),
  );
}

/** The smallest copy the client accepts (q=0 refusals aside, which browsers do not send). */
function sendPage(request: FastifyRequest, reply: FastifyReply, page: Page) {
  const accepted = request.headers["accept-encoding"] ?? "";
  reply
    .type("text/html; charset=utf-8")
    .header("cache-control", "no-cache")
    .header("vary", "accept-encoding");
  if (page.br && /\bbr\b/.test(accepted)) return reply.header("content-encoding", "br").send(page.br);
  if (page.gzip && /\bgzip\b/.test(accepted)) return reply.header("content-encoding", "gzip").send(page.gzip);
  return reply.send(page.identity);
}

/**
 * Work a landing page's `Link` header may wait for: a read of a few milliseconds when the database
 * is well. Past this the page goes without it, never later because of it.
 */
const PRELOAD_WAIT_MS = 100;

/** A `Link` header worked out per request for a landing page (e.g. from the catalog), if any. */
type PreloadLink = () => Promise<string | undefined>;

async function linkWithin(app: FastifyInstance, link: PreloadLink): Promise<string | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), PRELOAD_WAIT_MS);
  });
  const read = link().catch((error: unknown) => {
    app.log.warn({ err: error }, "landing page preload skipped");
    return undefined;
  });
  try {
    return await Promise.race([read, late]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Serves the built SPA: hashed assets cached for a year, everything else revalidated,
 * client routes answered with their landing page or index.html, any other page path with
 * index.html and 404 (the client draws the spec's not-found page; a crawler or a link checker sees
 * the status), unknown /api paths with a 404 problem.
 */
async function spa(
  app: FastifyInstance,
  opts: {
    staticDir: string;
    preloads?: Readonly<Record<string, PreloadLink>>;
    /** Markup put first in every page's <body> (the test-mode banner). */
    bodyStart?: string;
  },
) {
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
  const indexHtml = hasClient ? readPage(indexFile, opts.bodyStart) : undefined;
  const pages = hasClient ? landingPages(opts.staticDir, opts.bodyStart) : new Map<string, Page>();

  app.setNotFoundHandler(async (request, reply) => {
    const [pathname = "/", search] = request.url.split("?");
    const isApi = pathname === "/api" || pathname.startsWith("/api/");
    const isAsset = /\.[a-z0-9]+$/i.test(pathname);
    if (!isApi && !isAsset && indexHtml && (request.method === "GET" || request.method === "HEAD")) {
      const route = pathname.length > 1 ? pathname.replace(/\/$/, "") : pathname;
      const page = pages.get(route);
      // Only the page as prerendered: a query string (a filter, a search) asks for other data.
      const preload = page && search === undefined ? opts.preloads?.[route] : undefined;
      const link = preload && (await linkWithin(app, preload));
      if (link) reply.header("link", link);
      if (!page && !isClientRoute(pathname)) reply.code(404);
      return sendPage(request, reply, page ?? indexHtml);
    }
    throw notFound(`No route for ${request.method} ${pathname}.`);
  });
}

export default fp(spa, { name: "spa" });
