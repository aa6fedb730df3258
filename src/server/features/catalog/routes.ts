import { brotliCompressSync, gzipSync, constants as zlib } from "node:zlib";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { z } from "zod";
import {
  adminProductListQuerySchema,
  adminProductListSchema,
  adminProductSchema,
  type ProductList,
  type ProductListQuery,
  productIdParamsSchema,
  productInputSchema,
  productListQuerySchema,
  productListSchema,
  productPatchSchema,
  productSchema,
  resolveProductListQuery,
} from "../../../shared/catalog.js";
import { productListPath } from "../../../shared/constants.js";
import { adminMessages } from "../../../shared/messages/admin.js";
import { catalogMessages } from "../../../shared/messages/catalog.js";
import { problemCodes } from "../../../shared/problem-codes.js";
import type { Db } from "../../db/client.js";
import { matchesEtag, notModifiedSchema, sendNotModified } from "../../lib/etag.js";
import { conflict, gone, notFound } from "../../lib/problem.js";
import { featureRoutes } from "../../lib/routes.js";
import { answerCachedEarly, CACHED_ANSWER_TYPE, type Representation } from "../../plugins/early-answers.js";
import { actorOf } from "../activity/index.js";
import type { CachedBody, Loaded } from "./cache.js";
import { changeCatalog } from "./changes.js";
import { ProductSearch, type SearchLimits, searchLimits } from "./search.js";
import {
  createProduct,
  deleteProduct,
  getProduct,
  listAdminProducts,
  listProducts,
  setArchived,
  updateProduct,
} from "./service.js";

/** JSON as the route's response schema would send it, serialized once for every request it serves. */
function encode<T>(schema: z.ZodType<T>, value: T): Buffer {
  return Buffer.from(JSON.stringify(schema.parse(value)));
}

/** Below about a packet, compressing saves nothing worth the work. */
const COMPRESS_FROM_BYTES = 1024;

interface Encoded {
  body: Buffer;
  etag: string;
}

/**
 * Compressed copies of cached answers, made at most once per answer and coding, on the first
 * request that accepts them; they go when the answer leaves the cache. Each copy has its own
 * strong ETag (RFC 9110: a validator names one representation, content coding included).
 */
const encodedCopies = new WeakMap<CachedBody, { br?: Encoded; gzip?: Encoded }>();

function encodedFor(cached: CachedBody, acceptEncoding: string | undefined): Representation {
  if (!acceptEncoding || cached.body.length < COMPRESS_FROM_BYTES) return cached;
  const coding = /\bbr\b/.test(acceptEncoding) ? "br" : /\bgzip\b/.test(acceptEncoding) ? "gzip" : undefined;
  if (!coding) return cached;
  let copies = encodedCopies.get(cached);
  if (!copies) {
    copies = {};
    encodedCopies.set(cached, copies);
  }
  let copy = copies[coding];
  if (!copy) {
    const body =
      coding === "br"
        ? brotliCompressSync(cached.body, {
            params: { [zlib.BROTLI_PARAM_QUALITY]: 5, [zlib.BROTLI_PARAM_SIZE_HINT]: cached.body.length },
          })
        : gzipSync(cached.body, { level: 6 });
    copy = { body, etag: `${cached.etag.slice(0, -1)}-${coding}"` };
    copies[coding] = copy;
  }
  return { ...copy, coding };
}

/**
 * The headers of a representation besides the security headers: its strong ETag, `no-cache` (so
 * browsers keep it but ask each time, and stock is never shown older than the server's cache; an
 * unchanged answer costs a 304), and its coding.
 */
function answerHeaders(sent: Representation): Record<string, string> {
  return {
    etag: sent.etag,
    "cache-control": "no-cache",
    vary: "accept-encoding",
    ...(sent.coding ? { "content-encoding": sent.coding } : {}),
  };
}

/** Sends a cached answer, compressed when the client takes it, or a 304 when the client has it. */
function sendCached(request: FastifyRequest, reply: FastifyReply, cached: CachedBody) {
  const sent = encodedFor(cached, request.headers["accept-encoding"]);
  const { "content-encoding": coding, ...headers } = answerHeaders(sent);
  reply.headers(headers);
  if (matchesEtag(request.headers["if-none-match"], sent.etag)) return sendNotModified(reply);
  if (coding) reply.header("content-encoding", coding);
  return reply.type(CACHED_ANSWER_TYPE).send(sent.body);
}

/** Raw URLs remembered with their cache keys; searches are free text, so the list is bounded. */
const MAX_REMEMBERED_URLS = 1_000;

/**
 * Answers a request whose exact URL was parsed and validated before, straight from the cache: the
 * same URL parses to the same key, so parsing and validating it again (most of what the route costs
 * besides sending) would change nothing. Two ways in: as an early answer on node:http
 * (plugins/early-answers.ts: the running server, no Fastify request, reply, hooks or child logger,
 * the same bytes and headers, and the same access line), and as the route's onRequest hook
 * (light-my-request, a server that is closing, and EARLY_ANSWERS=false). Other requests take the
 * route's usual path, which remembers their URL once it has validated them.
 */
function answeredByUrl(app: FastifyInstance, route: string) {
  const cache = app.catalogCache;
  const keys = new Map<string, string>();
  const cachedFor = (url: string) => {
    const key = keys.get(url);
    return key === undefined ? undefined : cache.peek(key);
  };
  answerCachedEarly(app, route, { find: cachedFor, represent: encodedFor, cacheHeaders: answerHeaders });
  return {
    onRequest: async (request: FastifyRequest, reply: FastifyReply) => {
      const cached = cachedFor(request.url);
      if (cached) return sendCached(request, reply, cached);
    },
    remember(url: string, key: string) {
      if (keys.size >= MAX_REMEMBERED_URLS) keys.clear();
      keys.set(url, key);
    },
  };
}

/** The parsed query, so ?page=1 and no page at all share one entry. */
function listKey(query: ProductListQuery): string {
  return JSON.stringify(["list", query.search, query.category, query.sort, query.page, query.pageSize]);
}

/**
 * Reads an answer for the catalog cache (`read`, on the database it is given), from a replica when
 * one is in use and shows every change this instance has heard of: none that it could miss
 * (everything, or a product of `known`) within the longest a replica in use may trail the primary,
 * and none of the products it read either; otherwise from the primary. So the cache never keeps,
 * nor serves, a replica's answer older than a change it was told of: an admin who edits a product,
 * and every visitor after them, sees the edit. With no replica in use, the primary at once.
 */
async function readCatalog(
  app: FastifyInstance,
  known: readonly string[],
  read: (db: Db) => Promise<Loaded>,
): Promise<Loaded> {
  const { reads, catalogCache: cache } = app;
  if (reads.staleMs === 0) return read(app.db);
  const database = reads.pick(cache.changedWithin(reads.staleMs, known));
  if (database === app.database) return read(database.db);
  const loaded = await read(database.db);
  return cache.changedWithin(reads.staleMs, loaded.productIds) ? read(reads.pick(true).db) : loaded;
}

/** One page of the product list, from the cache or read once for every request waiting on it. */
function cachedList(
  app: FastifyInstance,
  query: ProductListQuery,
  read: (db: Db, query: ProductListQuery) => Promise<ProductList>,
): Promise<CachedBody> {
  return app.catalogCache.get(listKey(query), () =>
    readCatalog(app, [], async (db) => {
      const list = await read(db, query);
      return { body: encode(productListSchema, list), productIds: list.items.map((p) => p.id) };
    }),
  );
}

/** The list /tools asks for on arrival: no search, no category, default order, first page. */
const ARRIVAL_QUERY = resolveProductListQuery(productListQuerySchema.parse({}));
/** The URL the page asks it by (get-products.ts, use-catalog-filter.ts). */
const ARRIVAL_PATH = productListPath(ARRIVAL_QUERY);
/** Only plain same-origin paths go into a header (product images are checked when saved, too). */
const SAFE_PATH = /^\/[A-Za-z0-9/._-]+$/;
const firstImages = new WeakMap<CachedBody, string | null>();

/**
 * A `Link` header preloading what /tools shows on arrival: the first page of the list, and the
 * image of its first product (the page's largest image, its Largest Contentful Paint). The browser
 * fetches both beside the page's code instead of after the code has run and asked for the list.
 * The read also warms the cache for the list request that follows. Throws when the catalog cannot
 * be read (the page then goes without the header).
 */
export async function productsPagePreload(app: FastifyInstance): Promise<string | undefined> {
  const cached = await cachedList(app, ARRIVAL_QUERY, listProducts);
  let image = firstImages.get(cached);
  if (image === undefined) {
    const first = (JSON.parse(cached.body.toString()) as ProductList).items[0]?.image;
    image = first && SAFE_PATH.test(first) ? first : null;
    firstImages.set(cached, image);
  }
  const links = [
    // The list itself, as the page will ask for it: fetched beside the page's code, not after it.
    `<${ARRIVAL_PATH}>; rel=preload; as=fetch; crossorigin=anonymous`,
  ];
  if (image) links.push(`<${image}>; rel=preload; as=image; fetchpriority=high`);
  return links.join(", ");
}

export interface CatalogRoutesOptions {
  /** Overrides of the search's rationing, which is otherwise sized from the database pool. */
  search?: Partial<SearchLimits>;
}

export const catalogRoutes = featureRoutes<CatalogRoutesOptions>(["catalog"], async (app, route, options) => {
  const search = new ProductSearch(searchLimits(app.database.pool.options.max, options.search));
  // Searches through `search`, which rations them; the rest of the list straight from the catalog.
  const readList = (db: Db, query: ProductListQuery) =>
    query.search ? search.list(db, query) : listProducts(db, query);
  const listByUrl = answeredByUrl(app, "/api/products");
  const productByUrl = answeredByUrl(app, "/api/products/:id");

  app.get(
    "/api/products",
    route.anyone({
      summary: "List products with search, category filter, sorting and pagination",
      description:
        "A search is ranked by relevance unless another sort is chosen, and counts its matches up to a limit (totalExact). Searches are rationed: 503 with Retry-After when too many wait or one runs too long.",
      querystring: productListQuerySchema,
      response: { 200: productListSchema, 304: notModifiedSchema },
      problems: [503],
      hooks: [listByUrl.onRequest],
    }),
    async (request, reply) => {
      const query = resolveProductListQuery(request.query);
      listByUrl.remember(request.url, listKey(query));
      return sendCached(request, reply, await cachedList(app, query, readList));
    },
  );

  app.get(
    "/api/products/:id",
    route.anyone({
      summary: "One product",
      description: `An archived product (no longer sold) answers 410 with code "${problemCodes.productArchived}".`,
      params: productIdParamsSchema,
      response: { 200: productSchema, 304: notModifiedSchema },
      problems: [404, 410],
      hooks: [productByUrl.onRequest],
    }),
    async (request, reply) => {
      const { id } = request.params;
      const key = JSON.stringify(["product", id]);
      productByUrl.remember(request.url, key);
      const cached = await app.catalogCache.get(key, () =>
        readCatalog(app, [id], async (db) => {
          const product = await getProduct(db, id);
          if (!product) throw notFound(catalogMessages.notFound);
          // Not cached: a refusal is read again each time, and a restore shows the product at once.
          if (product.archivedAt) throw gone(catalogMessages.archived, problemCodes.productArchived);
          return { body: encode(productSchema, product), productIds: [id] };
        }),
      );
      return sendCached(request, reply, cached);
    },
  );

  app.post(
    "/api/products",
    route.admin({
      summary: "Add a product (admin)",
      body: productInputSchema,
      response: { 201: productSchema },
      problems: [409],
    }),
    async (request, reply) => {
      const product = await changeCatalog(app.catalogCache, (change) =>
        createProduct(app.db, request.body, change, actorOf(request)),
      );
      return reply.code(201).send(product);
    },
  );

  app.patch(
    "/api/products/:id",
    route.admin({
      summary: "Change a product's price, stock, description, name, image, category or volume prices (admin)",
      description:
        "An archived product can be changed too; it stays archived. A new price or new volume prices are checked against the other as stored: every tier below the price, or 400.",
      params: productIdParamsSchema,
      body: productPatchSchema,
      response: { 200: adminProductSchema },
      problems: [404, 409],
    }),
    async (request) => {
      const product = await changeCatalog(app.catalogCache, (change) =>
        updateProduct(app.db, request.params.id, request.body, change, request.user.id, actorOf(request)),
      );
      if (!product) throw notFound(catalogMessages.notFound);
      return product;
    },
  );

  // Not cached: admins see the stock as it is now, and archived products, which no cache holds.
  // From a replica unless this admin wrote just now (plugins/replicas.ts).
  route.adminList(
    "/api/admin/products",
    adminProductListQuerySchema,
    adminProductListSchema,
    listAdminProducts,
    {
      summary: "The products on sale, newest first, or the archived ones (admin)",
    },
  );

  app.get(
    "/api/admin/products/:id",
    route.admin({
      summary: "One product, archived or not (admin)",
      params: productIdParamsSchema,
      response: { 200: adminProductSchema },
      problems: [404],
    }),
    async (request) => {
      // From a replica unless this admin wrote just now: then the primary, with their edit.
      const product = await getProduct(app.reads.of(request).db, request.params.id);
      if (!product) throw notFound(catalogMessages.notFound);
      return product;
    },
  );

  for (const [action, archived] of [
    ["archive", true],
    ["restore", false],
  ] as const) {
    app.post(
      `/api/products/:id/${action}`,
      route.admin({
        summary: archived
          ? "Archive a product: it leaves the storefront and cannot be booked; its orders stay (admin)"
          : "Restore an archived product to the storefront (admin)",
        description: "Idempotent: archiving an archived product, or restoring one on sale, changes nothing.",
        params: productIdParamsSchema,
        response: { 200: adminProductSchema },
        problems: [404],
      }),
      async (request) => {
        const product = await changeCatalog(app.catalogCache, (change) =>
          setArchived(app.db, request.params.id, archived, change, actorOf(request)),
        );
        if (!product) throw notFound(catalogMessages.notFound);
        return product;
      },
    );
  }

  app.delete(
    "/api/products/:id",
    route.admin({
      summary: "Delete a product that was never ordered (admin)",
      description: `A product that was ordered answers 409 with code "${problemCodes.productOrdered}": archive it instead.`,
      params: productIdParamsSchema,
      response: { 204: z.null() },
      problems: [404, 409],
    }),
    async (request, reply) => {
      const refused = await changeCatalog(app.catalogCache, (change) =>
        deleteProduct(app.db, request.params.id, change, actorOf(request)),
      );
      if (refused === "not-found") throw notFound(catalogMessages.notFound);
      if (refused === "ordered")
        throw conflict(adminMessages.products.deleteOrdered, problemCodes.productOrdered);
      return reply.code(204).send(null);
    },
  );
});
