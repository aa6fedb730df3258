import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AdminProduct } from "../../shared/catalog.js";
import { PRIMARY_COOKIE } from "../plugins/replicas.js";
import {
  metricOf,
  type ReplicaPair,
  readsRoutedTo,
  readyReplicas,
  sessionOnly,
  shopOnPair,
  startReplicaPair,
} from "../test/replica.js";
import { until } from "../test/until.js";
import { fromShop, signUpAdmin } from "../test/users.js";
import { LagClock, parseLsn, replicaName } from "./replicas.js";

/**
 * Read replicas (issue 35, item 2; docs/scaling.md "Read replicas"), against a real streaming
 * replica the test starts (test/replica.ts), with the lag provoked by pausing its replay.
 */

describe("the lag rule", () => {
  it("reads WAL positions as numbers", () => {
    expect(parseLsn("0/16B3748")).toBe(0x16b3748n);
    expect(parseLsn("1A/0") > parseLsn("19/FFFFFFFF")).toBe(true);
  });

  it("is 0 for a replica that replayed the newest position, however long the primary was idle", () => {
    const clock = new LagClock();
    clock.notePrimary(100n, 0);
    clock.notePrimary(100n, 60_000);
    expect(clock.lagSeconds(100n, 60_000)).toBe(0);
  });

  it("counts from when the first position a replica missed was noted", () => {
    const clock = new LagClock();
    clock.notePrimary(100n, 0);
    clock.notePrimary(200n, 1_000);
    clock.notePrimary(300n, 2_000);
    expect(clock.lagSeconds(100n, 5_000)).toBe(4);
    expect(clock.lagSeconds(250n, 5_000)).toBe(3);
    clock.forgetUpTo(250n);
    expect(clock.lagSeconds(250n, 5_000)).toBe(3);
    expect(clock.lagSeconds(300n, 5_000)).toBe(0);
  });

  it("names a replica without its password", () => {
    expect(replicaName("postgres://shop:secret@10.0.0.9:5433/gearhouse")).toBe("10.0.0.9:5433/gearhouse");
  });
});

const replicaInUse = async (app: FastifyInstance) => (await readyReplicas(app))[0]?.inUse === true;

type Shop = Awaited<ReturnType<typeof shopOnPair>>;

describe("read replicas", () => {
  let pair: ReplicaPair;
  /** Never leaves the replica out for its lag: what a lagging replica serves, and to whom. */
  let patient: Shop;
  /** Leaves it out past 1 s of lag. */
  let strict: Shop;
  const shops: Shop[] = [];

  beforeAll(async () => {
    pair = await startReplicaPair();
    patient = await shopOnPair(pair, 3600);
    shops.push(patient);
    strict = await shopOnPair(pair, 1);
    shops.push(strict);
  }, 180_000);

  afterAll(async () => {
    for (const shop of shops) await shop.close();
    await pair?.stop();
  });

  it("takes a streaming replica in use, says so in /readyz, and reads the catalog from it once nothing changed within its lag", async () => {
    const replicas = await readyReplicas(strict.app);
    expect(replicas).toEqual([
      {
        name: expect.stringMatching(/^127\.0\.0\.1:\d+\/gearhouse$/),
        inUse: true,
        lagSeconds: expect.any(Number),
      },
    ]);
    expect(replicas[0]?.lagSeconds).toBeLessThanOrEqual(1);
    // At start the cache knows nothing of earlier changes, so it reads the primary for as long as a
    // replica in use may trail it (1 s and two checks here); a page not read before then goes to the replica.
    const before = await readsRoutedTo(strict.app, "replica");
    let page = 0;
    await until("a catalog page read from the replica", async () => {
      page += 1;
      const res = await strict.app.inject({ url: `/api/products?pageSize=1&page=${page}` });
      expect(res.statusCode).toBe(200);
      return (await readsRoutedTo(strict.app, "replica")) > before;
    });
    // A search too: its read-only, repeatable-read transaction and its time limit run on a standby.
    const beforeSearch = await readsRoutedTo(strict.app, "replica");
    const found = await strict.app.inject({ url: "/api/products?search=keyboard" });
    expect(found.statusCode).toBe(200);
    expect(found.json<{ items: { name: string }[] }>().items[0]?.name).toMatch(/Keyboard/);
    expect(await readsRoutedTo(strict.app, "replica")).toBe(beforeSearch + 1);
  });

  it("shows an admin their own edit from the primary while the paused replica still serves another admin the old product", async () => {
    const editor = await signUpAdmin(patient.app);
    const other = await signUpAdmin(patient.app);
    const list = await patient.app.inject({ url: "/api/products?pageSize=1" });
    const productId = list.json<{ items: { id: string }[] }>().items[0]?.id ?? "";
    const adminRead = (cookie: string) =>
      patient.app.inject({ url: `/api/admin/products/${productId}`, headers: { cookie } });
    const before = (await adminRead(sessionOnly(other.cookie))).json<AdminProduct>().description;

    await pair.pauseReplay();
    const description = `Edited while the replica lags ${Date.now()}`;
    const edit = await fromShop(
      patient.app,
      "PATCH",
      `/api/products/${productId}`,
      sessionOnly(editor.cookie),
      {
        description,
      },
    );
    expect(edit.statusCode).toBe(200);
    const primaryCookie = [edit.headers["set-cookie"]]
      .flat()
      .find((c) => c?.startsWith(`${PRIMARY_COOKIE}=1`));
    expect(primaryCookie).toMatch(/Max-Age=\d+; Path=\/; HttpOnly; SameSite=Lax/);

    const toPrimary = await readsRoutedTo(patient.app, "primary");
    const own = await adminRead(`${sessionOnly(editor.cookie)}; ${PRIMARY_COOKIE}=1`);
    expect(own.json<AdminProduct>().description).toBe(description);
    expect(await readsRoutedTo(patient.app, "primary")).toBe(toPrimary + 1);

    const toReplica = await readsRoutedTo(patient.app, "replica");
    const others = await adminRead(sessionOnly(other.cookie));
    expect(others.json<AdminProduct>().description).toBe(before);
    expect(await readsRoutedTo(patient.app, "replica")).toBe(toReplica + 1);

    // The catalog's cache heard of the change: it reads the primary, never keeping the replica's old page.
    const visitor = await patient.app.inject({ url: `/api/products/${productId}` });
    expect(visitor.json<{ description: string }>().description).toBe(description);
    // Another instance shows it once it hears of it, although its replica is in use and paused.
    await until(
      "the other instance to show the edit",
      async () =>
        (await strict.app.inject({ url: `/api/products/${productId}` })).json<{ description: string }>()
          .description === description,
      10_000,
    );
  });

  it("leaves a replica lagging past the limit out, in /readyz and the metrics, reads the primary, and takes it back once it catches up", async () => {
    // Replay is still paused, behind the edit above.
    await until(
      "the strict shop to leave the lagging replica out",
      async () => !(await replicaInUse(strict.app)),
    );
    const [state] = await readyReplicas(strict.app);
    expect(state?.reason).toBe("lagging");
    expect(state?.lagSeconds).toBeGreaterThan(1);
    const name = state?.name ?? "";
    expect(await metricOf(strict.app, `gearhouse_replica_in_use{replica="${name}"}`)).toBe(0);
    expect(await metricOf(strict.app, `gearhouse_replica_lag_seconds{replica="${name}"}`)).toBeGreaterThan(1);
    // The patient shop keeps it: its limit is an hour.
    expect(await replicaInUse(patient.app)).toBe(true);

    const admin = await signUpAdmin(strict.app);
    const toReplica = await readsRoutedTo(strict.app, "replica");
    const users = await strict.app.inject({
      url: "/api/users",
      headers: { cookie: sessionOnly(admin.cookie) },
    });
    // The admin signed up after replay stopped: only the primary knows them.
    expect(users.statusCode).toBe(200);
    expect(await readsRoutedTo(strict.app, "replica")).toBe(toReplica);

    await pair.resumeReplay();
    await until("the strict shop to take the replica back", () => replicaInUse(strict.app));
    expect(await metricOf(strict.app, `gearhouse_replica_in_use{replica="${name}"}`)).toBe(1);
    const back = await strict.app.inject({
      url: "/api/users",
      headers: { cookie: sessionOnly(admin.cookie) },
    });
    expect(back.statusCode).toBe(200);
    expect(await readsRoutedTo(strict.app, "replica")).toBe(toReplica + 1);
  });

  it("leaves an unreachable replica out and keeps answering from the primary", async () => {
    const admin = await signUpAdmin(strict.app);
    await pair.stopReplica();
    await until(
      "the replica to be left out",
      async () => (await readyReplicas(strict.app))[0]?.reason === "unreachable",
    );
    const toPrimary = await readsRoutedTo(strict.app, "primary");
    const users = await strict.app.inject({
      url: "/api/users",
      headers: { cookie: sessionOnly(admin.cookie) },
    });
    expect(users.statusCode).toBe(200);
    expect(await readsRoutedTo(strict.app, "primary")).toBe(toPrimary + 1);
  });
});
