import { PgDialect } from "drizzle-orm/pg-core";
import { describe, expect, it } from "vitest";
import { CatalogCache, type Loaded } from "./cache.js";
import { changeCatalog } from "./changes.js";
import { CATALOG_CHANNEL } from "./listener.js";

const page = (text: string, productIds: string[]): Loaded => ({ body: Buffer.from(text), productIds });

/** A live cache holding one answer showing product a and one showing product b. */
async function filledCache(): Promise<CatalogCache> {
  const cache = new CatalogCache();
  cache.setLive(true);
  await cache.get("a", async () => page("a", ["a"]));
  await cache.get("b", async () => page("b", ["b"]));
  return cache;
}

describe("changeCatalog", () => {
  it("hands out a pg_notify of everything for the statement, and nothing for one product's stock", async () => {
    const dialect = new PgDialect();
    await changeCatalog(new CatalogCache(), async (change) => {
      expect(dialect.sqlToQuery(change())).toMatchObject({
        sql: "pg_notify($1, $2::text)",
        params: [CATALOG_CHANNEL, ""],
      });
      expect(change("a")).toBeUndefined();
    });
  });

  it("announces a product's stock change to the other instances once the write has returned", async () => {
    const cache = await filledCache();
    const announced: string[] = [];
    cache.announceWith((id) => announced.push(id));
    await changeCatalog(cache, async (change) => {
      change("a");
      change("a");
      expect(announced).toEqual([]);
    });
    expect(announced).toEqual(["a"]);
    await expect(
      changeCatalog(cache, async (change) => {
        change("b");
        throw new Error("rolled back");
      }),
    ).rejects.toThrow("rolled back");
    expect(announced).toEqual(["a"]);
  });

  it("drops this instance's answers showing the product once the write has returned, not before", async () => {
    const cache = await filledCache();
    const answer = await changeCatalog(cache, async (change) => {
      change("a");
      // Until the write commits, the stored answer is still the database's.
      expect(cache.peek("a")).toBeDefined();
      return "written";
    });
    expect(answer).toBe("written");
    expect(cache.peek("a")).toBeUndefined();
    expect(cache.peek("b")).toBeDefined();
  });

  it("drops every answer after a change that may touch any product", async () => {
    const cache = await filledCache();
    await changeCatalog(cache, async (change) => change());
    expect(cache.size).toBe(0);
  });

  it("drops nothing when the write fails, for it committed nothing", async () => {
    const cache = await filledCache();
    const failing = changeCatalog(cache, async (change) => {
      change();
      throw new Error("out of stock");
    });
    await expect(failing).rejects.toThrow("out of stock");
    expect(cache.size).toBe(2);
  });
});
