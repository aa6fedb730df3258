import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AdminProduct } from "../../../shared/catalog.js";
import {
  type ReplicaPair,
  readsRoutedTo,
  readyReplicas,
  sessionOnly,
  shopOnPair,
  startReplicaPair,
} from "../replica.js";
import { until } from "../until.js";
import { fromShop, signUpAdmin } from "../users.js";
import { FIGURES, recordResults } from "./figures.js";

/**
 * Read replicas under load while lag comes and goes (issue 35, items 2 and 4; docs/scaling.md):
 * readers keep reading the catalog and the admin's lists while, round after round, the replica's
 * replay is paused, an admin edits a product, the replica is left out for its lag and taken back
 * once replay resumes. Every read is answered, and neither the admin nor a visitor ever reads the
 * product as it was before the admin's edit.
 */

type Shop = Awaited<ReturnType<typeof shopOnPair>>;
const READERS = 4;

describe("read replicas while lag comes and goes", () => {
  let pair: ReplicaPair;
  let shop: Shop;

  beforeAll(async () => {
    pair = await startReplicaPair();
    shop = await shopOnPair(pair, 1);
  }, 180_000);

  afterAll(async () => {
    await shop?.close();
    await pair?.stop();
  });

  it(`answers every read, and no one's own edit reads stale, over ${FIGURES.replicaLagRounds} rounds of lag`, async () => {
    const { app } = shop;
    const editor = await signUpAdmin(app);
    const reader = await signUpAdmin(app);
    const editorCookie = sessionOnly(editor.cookie);
    const readerCookie = sessionOnly(reader.cookie);
    const list = await app.inject({ url: "/api/products?pageSize=8" });
    const ids = list.json<{ items: { id: string }[] }>().items.map((p) => p.id);
    const productId = ids[0] ?? "";

    let reading = true;
    let reads = 0;
    const failures: string[] = [];
    const readLoop = async (n: number) => {
      for (let i = n; reading; i += 1) {
        const url =
          i % 3 === 0
            ? `/api/products/${ids[i % ids.length]}`
            : i % 3 === 1
              ? `/api/products?pageSize=4&page=${(i % 5) + 1}`
              : "/api/admin/products?pageSize=8";
        const res = await app.inject({ url, headers: i % 3 === 2 ? { cookie: readerCookie } : {} });
        reads += 1;
        if (res.statusCode !== 200) failures.push(`${url}: ${res.statusCode} ${res.body.slice(0, 200)}`);
      }
    };
    const readers = Array.from({ length: READERS }, (_, n) => readLoop(n));

    const staleOwn: string[] = [];
    const staleVisitor: string[] = [];
    const [toReplicaBefore, toPrimaryBefore] = [
      await readsRoutedTo(app, "replica"),
      await readsRoutedTo(app, "primary"),
    ];
    try {
      for (let round = 1; round <= FIGURES.replicaLagRounds; round += 1) {
        await until("the replica in use", async () => (await readyReplicas(app))[0]?.inUse === true);
        await pair.pauseReplay();
        const description = `Round ${round} of the replica's lag`;
        const edit = await fromShop(app, "PATCH", `/api/products/${productId}`, editorCookie, {
          description,
        });
        expect(edit.statusCode).toBe(200);
        // The editor's next reads, with the cookie the edit's answer set, until the replica is left out.
        const own = `${editorCookie}; gh_primary=1`;
        await until("the lagging replica to be left out", async () => {
          const mine = await app.inject({
            url: `/api/admin/products/${productId}`,
            headers: { cookie: own },
          });
          if (mine.json<AdminProduct>().description !== description) staleOwn.push(`round ${round}`);
          const seen = await app.inject({ url: `/api/products/${productId}` });
          if (seen.json<{ description: string }>().description !== description)
            staleVisitor.push(`round ${round}`);
          return (await readyReplicas(app))[0]?.reason === "lagging";
        });
        await pair.resumeReplay();
      }
      await until("the replica back in use", async () => (await readyReplicas(app))[0]?.inUse === true);
    } finally {
      reading = false;
      await Promise.all(readers);
    }

    const toReplica = (await readsRoutedTo(app, "replica")) - toReplicaBefore;
    const toPrimary = (await readsRoutedTo(app, "primary")) - toPrimaryBefore;
    recordResults("read replicas: lag comes and goes under reads", {
      rounds: FIGURES.replicaLagRounds,
      reads,
      failures: failures.length,
      readsToReplica: toReplica,
      readsToPrimary: toPrimary,
      staleOwnReads: staleOwn.length,
      staleVisitorReads: staleVisitor.length,
    });
    expect(failures).toEqual([]);
    expect(staleOwn).toEqual([]);
    expect(staleVisitor).toEqual([]);
    // Both ways were taken: the replica while it kept up, the primary while it lagged.
    expect(toReplica).toBeGreaterThan(0);
    expect(toPrimary).toBeGreaterThan(0);
  });
});
