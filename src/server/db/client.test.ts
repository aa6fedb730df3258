import net from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { createTestDatabase } from "../test/app.js";
import { CONNECT_TIMEOUT_MS, createDatabase } from "./client.js";

describe("the database pool", () => {
  let testDb: Awaited<ReturnType<typeof createTestDatabase>>;
  beforeAll(async () => {
    testDb = await createTestDatabase();
  });
  afterAll(async () => {
    await testDb?.drop();
  });

  // pg and pg-pool bound their waits with setTimeout: on a fake clock the test moves, the waits
  // are decided by the bounds alone, never by how busy the machine is (only timers are faked; the
  // sockets are real).
  afterEach(() => {
    vi.useRealTimers();
  });

  /** Lets the sockets' events and the promises they settle run. */
  const settle = async () => {
    for (let i = 0; i < 5; i++) await new Promise((r) => setImmediate(r));
  };

  /** Whether `promise` has settled, by now. */
  function watch(promise: Promise<unknown>) {
    const state = { settled: false };
    promise.then(
      () => (state.settled = true),
      () => (state.settled = true),
    );
    return state;
  }

  it("lets a query wait for a busy pool longer than a connection may take to open", async () => {
    const database = createDatabase(testDb.url, { max: 1 });
    const held = await database.pool.connect();
    let released = false;
    const release = () => {
      if (!released) held.release();
      released = true;
    };
    try {
      vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
      const waiting = database.pool.query("select 1 as one");
      const state = watch(waiting);
      // A burst of buyers keeps every connection busy for a while: that is load, not an outage.
      vi.advanceTimersByTime(CONNECT_TIMEOUT_MS + 500);
      await settle();
      expect(state.settled).toBe(false);
      release();
      expect((await waiting).rows).toEqual([{ one: 1 }]);
    } finally {
      vi.useRealTimers();
      // A failed expectation still gives the connection back, or closing the pool would wait for it.
      release();
      await database.close();
    }
  });

  it("gives up opening a connection to a database that does not answer after two seconds", async () => {
    // Accepts connections and never says a word, like a hung host behind a live network.
    let connected = () => {};
    const reached = new Promise<void>((resolve) => {
      connected = resolve;
    });
    const silent = net.createServer(() => connected());
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    const { port } = silent.address() as net.AddressInfo;
    const database = createDatabase(`postgres://gearhouse:gearhouse@127.0.0.1:${port}/gearhouse`);
    try {
      vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
      const query = database.pool.query("select 1");
      const state = watch(query);
      await reached;
      vi.advanceTimersByTime(CONNECT_TIMEOUT_MS - 1);
      await settle();
      expect(state.settled).toBe(false);
      vi.advanceTimersByTime(1);
      await settle();
      expect(state.settled).toBe(true);
      await expect(query).rejects.toThrow();
    } finally {
      vi.useRealTimers();
      await database.close();
      silent.close();
    }
  });

  describe("a single statement rolled back for a transient conflict", () => {
    // A function that fails its first `failures` calls with `code`, counted by a sequence (which a
    // rollback does not undo), as PostgreSQL fails a statement that meets a deadlock.
    async function flaky(database: ReturnType<typeof createDatabase>, code: string, failures: number) {
      const name = `flaky_${Math.random().toString(36).slice(2)}`;
      await database.pool.query(`create sequence ${name}_calls`);
      await database.pool.query(`create function ${name}() returns int language plpgsql as $$
        begin
          if nextval('${name}_calls') <= ${failures} then
            raise exception 'conflict' using errcode = '${code}';
          end if;
          return currval('${name}_calls');
        end $$`);
      return name;
    }

    /** A pool of its own for one test, closed after it whatever it did. */
    async function withDatabase(use: (database: ReturnType<typeof createDatabase>) => Promise<void>) {
      const database = createDatabase(testDb.url, { max: 2 });
      try {
        await use(database);
      } finally {
        await database.close();
      }
    }

    it("is run again on its own, and succeeds", () =>
      withDatabase(async (database) => {
        for (const code of ["40P01", "40001"]) {
          const fn = await flaky(database, code, 2);
          const { rows } = await database.pool.query(`select ${fn}() as calls`);
          expect(rows).toEqual([{ calls: 3 }]);
        }
      }));

    it("fails after three attempts, and other errors fail at once", () =>
      withDatabase(async (database) => {
        const conflict = await flaky(database, "40P01", 3);
        await expect(database.pool.query(`select ${conflict}()`)).rejects.toMatchObject({ code: "40P01" });
        const other = await flaky(database, "23505", 1);
        await expect(database.pool.query(`select ${other}()`)).rejects.toMatchObject({ code: "23505" });
        expect((await database.pool.query(`select ${other}() as calls`)).rows).toEqual([{ calls: 2 }]);
      }));

    it("is never run again inside a transaction: the transaction fails whole", () =>
      withDatabase(async (database) => {
        const fn = await flaky(database, "40P01", 1);
        const client = await database.pool.connect();
        try {
          await client.query("begin");
          await expect(client.query(`select ${fn}()`)).rejects.toMatchObject({ code: "40P01" });
          await client.query("rollback");
        } finally {
          client.release();
        }
      }));
  });
});
