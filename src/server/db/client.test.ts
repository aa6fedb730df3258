import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase } from "../test/app.js";
import { createDatabase } from "./client.js";

describe("the database pool", () => {
  let testDb: Awaited<ReturnType<typeof createTestDatabase>>;
  beforeAll(async () => {
    testDb = await createTestDatabase();
  });
  afterAll(async () => {
    await testDb?.drop();
  });

  it("lets a query wait for a busy pool longer than a connection may take to open", async () => {
    const database = createDatabase(testDb.url, { max: 1 });
    try {
      const held = await database.pool.connect();
      const waiting = database.pool.query("select 1 as one");
      // A burst of buyers keeps every connection busy for a while: that is load, not an outage.
      await new Promise((r) => setTimeout(r, 2_500));
      held.release();
      expect((await waiting).rows).toEqual([{ one: 1 }]);
    } finally {
      await database.close();
    }
  });

  it("gives up opening a connection to a database that does not answer after two seconds", async () => {
    // Accepts connections and never says a word, like a hung host behind a live network.
    const silent = net.createServer(() => {});
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    const { port } = silent.address() as net.AddressInfo;
    const database = createDatabase(`postgres://gearhouse:gearhouse@127.0.0.1:${port}/gearhouse`);
    try {
      const started = performance.now();
      await expect(database.pool.query("select 1")).rejects.toThrow();
      expect(performance.now() - started).toBeGreaterThanOrEqual(1_900);
      expect(performance.now() - started).toBeLessThan(3_000);
    } finally {
      await database.close();
      silent.close();
    }
  });
});
