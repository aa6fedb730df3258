import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import { CatalogCache } from "./cache.js";
import { CatalogListener } from "./listener.js";

declare module "fastify" {
  interface FastifyInstance {
    /** This instance's cache of catalog answers; writers go through changeCatalog (changes.ts). */
    catalogCache: CatalogCache;
  }
}

/**
 * The catalog cache and the listener that keeps it in step with every other instance on the same
 * database. Caching starts once the listener is connected, and stops whenever it is cut off.
 */
async function catalogCache(app: FastifyInstance) {
  const cache = new CatalogCache(undefined, undefined, (key, error) =>
    app.log.warn({ err: error, key }, "catalog answer could not be read again ahead of its expiry"),
  );
  // LISTEN needs a session: the database's own connection, not a pooler's (Database.direct).
  const listener = new CatalogListener(
    app.database.direct,
    {
      live: (live) => cache.setLive(live),
      productChanged: (id) => cache.productChanged(id),
      everythingChanged: () => cache.everythingChanged(),
    },
    app.log,
  );
  cache.announceWith((id) => listener.announce(id));
  app.decorate("catalogCache", cache);
  app.addHook("onReady", () => listener.start());
  app.addHook("onClose", () => listener.close());
}

export default fp(catalogCache, { name: "catalog-cache" });
