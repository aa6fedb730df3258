import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDatabase, type Database } from "../db/client.js";
import { rateLimits } from "../db/schema/index.js";
import { createTestDatabase } from "../test/app.js";
import { hitRateLimit } from "./rate-limit.js";

let testDb: Awaited<ReturnType<typeof createTestDatabase>>;
let database: Database;
beforeAll(async () => {
  testDb = await createTestDatabase();
  database = createDatabase(testDb.url, { max: 10 });
});
afterAll(async () => {
  await database?.close();
  await testDb?.drop();
});

const counter = async (key: string) =>
  (await database.db.select().from(rateLimits).where(eq(rateLimits.key, key)))[0];
/** Moves the key's window back, as if it had started `seconds` ago. */
const startedAgo = (key: string, seconds: number) =>
  database.db
    .update(rateLimits)
    .set({ windowStart: sql`now() - make_interval(secs => ${seconds})` })
    .where(eq(rateLimits.key, key));

describe("the rate limit counter", () => {
  it("counts 30 hits sent at once exactly: the first 5 allowed, the other 25 refused", async () => {
    const hits = await Promise.all(
      Array.from({ length: 30 }, () => hitRateLimit(database.db, "burst", 5, 60)),
    );
    expect(hits.filter((hit) => hit.allowed)).toHaveLength(5);
    expect((await counter("burst"))?.count).toBe(30);
  });

  it("says how long the window has left, and starts a new one once it has passed", async () => {
    await hitRateLimit(database.db, "window", 1, 60);
    await startedAgo("window", 50);
    const refused = await hitRateLimit(database.db, "window", 1, 60);
    expect(refused.allowed).toBe(false);
    expect(refused.retryAfterSeconds).toBeGreaterThanOrEqual(9);
    expect(refused.retryAfterSeconds).toBeLessThanOrEqual(10);

    await startedAgo("window", 60);
    expect(await hitRateLimit(database.db, "window", 1, 60)).toEqual({
      allowed: true,
      retryAfterSeconds: 60,
    });
    expect((await counter("window"))?.count).toBe(1);
  });

  it("counts nothing for a hit in a transaction that rolls back", async () => {
    await expect(
      database.db.transaction(async (tx) => {
        await hitRateLimit(tx, "rolled-back", 5, 60);
        throw new Error("the work the hit allowed failed");
      }),
    ).rejects.toThrow("the work the hit allowed failed");
    expect(await counter("rolled-back")).toBeUndefined();
  });
});
