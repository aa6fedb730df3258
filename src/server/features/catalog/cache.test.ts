import { describe, expect, it } from "vitest";
import { CatalogCache, type Loaded, strongEtag } from "./cache.js";

const page = (text: string, productIds: string[] = []): Loaded => ({ body: Buffer.from(text), productIds });

/** A read the test finishes when it chooses, to put changes in the middle of it. */
function deferred() {
  let resolve: (value: Loaded) => void = () => {};
  const promise = new Promise<Loaded>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

/** A read of key "k" that `change` happens in the middle of, ending with `text` (showing product a). */
function readAcross(cache: CatalogCache, change: () => void, text: string) {
  const read = deferred();
  const answer = cache.get("k", () => read.promise);
  change();
  read.resolve(page(text, ["a"]));
  return answer;
}

function liveCache(): CatalogCache {
  const cache = new CatalogCache();
  cache.setLive(true);
  return cache;
}

/** A clock the test moves by hand. */
function handClock() {
  let at = 1_000_000;
  return { now: () => at, advance: (ms: number) => (at += ms) };
}

/** Lets every settled read's callbacks run. */
const settle = () => new Promise((r) => setImmediate(r));

describe("CatalogCache", () => {
  it("serves a stored answer without reading again, with a strong ETag of its bytes", async () => {
    const cache = liveCache();
    let reads = 0;
    const load = async () => {
      reads += 1;
      return page('{"items":[]}');
    };
    const first = await cache.get("k", load);
    const second = await cache.get("k", load);
    expect(reads).toBe(1);
    expect(second).toBe(first);
    expect(first.etag).toBe(strongEtag(Buffer.from('{"items":[]}')));
    expect(first.etag).toMatch(/^"[A-Za-z0-9_-]+"$/);
  });

  it("shares one read between concurrent misses of a key", async () => {
    const cache = liveCache();
    const read = deferred();
    let reads = 0;
    const load = () => {
      reads += 1;
      return read.promise;
    };
    const answers = Promise.all([cache.get("k", load), cache.get("k", load), cache.get("k", load)]);
    read.resolve(page("a"));
    expect(new Set(await answers).size).toBe(1);
    expect(reads).toBe(1);
  });

  // On a clock the test moves, so that "older than its time to live" holds however busy the machine.
  it("reads again once an answer is older than its time to live", async () => {
    const clock = handClock();
    const cache = new CatalogCache(30, clock.now);
    cache.setLive(true);
    let reads = 0;
    const load = async () => page(String(++reads));
    await cache.get("k", load);
    // Nothing asks for it meanwhile, so no read ahead of its end replaces it (see "refreshing ahead").
    clock.advance(30);
    expect((await cache.get("k", load)).body.toString()).toBe("2");
    expect(reads).toBe(2);
  });

  it("does not make a later request wait for a read already older than the time to live", async () => {
    const clock = handClock();
    const cache = new CatalogCache(30, clock.now);
    cache.setLive(true);
    const slow = deferred();
    void cache.get("k", () => slow.promise);
    clock.advance(30);
    expect((await cache.get("k", async () => page("fresh"))).body.toString()).toBe("fresh");
    slow.resolve(page("slow"));
  });

  it("drops only the answers that show a product whose stock changed", async () => {
    const cache = liveCache();
    await cache.get("with-a", async () => page("1", ["a", "b"]));
    await cache.get("without-a", async () => page("1", ["b", "c"]));
    cache.productChanged("a");
    expect((await cache.get("with-a", async () => page("2", ["a", "b"]))).body.toString()).toBe("2");
    expect((await cache.get("without-a", async () => page("2", ["b", "c"]))).body.toString()).toBe("1");
  });

  it("drops every answer when anything may have changed", async () => {
    const cache = liveCache();
    await cache.get("k", async () => page("1"));
    cache.everythingChanged();
    expect((await cache.get("k", async () => page("2"))).body.toString()).toBe("2");
  });

  it("does not keep an answer whose read overlapped a change of a product it shows", async () => {
    const cache = liveCache();
    const answer = await readAcross(cache, () => cache.productChanged("a"), "read before the change");
    expect(answer.body.toString()).toBe("read before the change");
    expect((await cache.get("k", async () => page("fresh", ["a"]))).body.toString()).toBe("fresh");
  });

  it("does not make a request that came after a change wait for a read begun before it", async () => {
    const cache = liveCache();
    const stale = deferred();
    void cache.get("k", () => stale.promise);
    cache.everythingChanged();
    const after = await cache.get("k", async () => page("fresh"));
    expect(after.body.toString()).toBe("fresh");
    stale.resolve(page("stale"));
  });

  it("keeps an answer whose read overlapped a change of another product", async () => {
    const cache = liveCache();
    await readAcross(cache, () => cache.productChanged("other"), "1");
    expect((await cache.get("k", async () => page("2", ["a"]))).body.toString()).toBe("1");
  });

  it("keeps nothing while it cannot hear other instances' changes, and forgets all when it can again", async () => {
    const cache = new CatalogCache();
    let reads = 0;
    const load = async () => page(String(++reads));
    await cache.get("k", load);
    await cache.get("k", load);
    expect(reads).toBe(2);
    cache.setLive(true);
    await cache.get("k", load);
    await cache.get("k", load);
    expect(reads).toBe(3);
    cache.setLive(false);
    expect(cache.size).toBe(0);
  });

  describe("refreshing ahead", () => {
    const TTL = 1_000;

    /** A live cache on a clock the test moves, and the background reads it failed to make. */
    function handCache() {
      const clock = handClock();
      const failed: string[] = [];
      const cache = new CatalogCache(TTL, clock.now, (key) => failed.push(key));
      cache.setLive(true);
      return { cache, clock, failed };
    }

    /** A read answering `first`, then, every time after, what the test resolves `later` with. */
    function firstThen(first: Loaded) {
      const later = deferred();
      let calls = 0;
      return { later, load: async () => (++calls === 1 ? first : later.promise) };
    }

    it("reads a key in demand again late in its life, still answering from the stored answer meanwhile", async () => {
      const { cache, clock } = handCache();
      const reads: ReturnType<typeof deferred>[] = [];
      const load = () => {
        const read = deferred();
        reads.push(read);
        return read.promise;
      };
      const first = cache.get("k", load);
      reads[0]?.resolve(page("1"));
      await first;

      clock.advance(TTL * 0.7);
      expect(cache.peek("k")?.body.toString()).toBe("1");
      expect(reads).toHaveLength(1);

      clock.advance(TTL * 0.1);
      // Late in its life: answered at once from the stored answer, and read again behind it, once.
      expect(cache.peek("k")?.body.toString()).toBe("1");
      expect((await cache.get("k", load)).body.toString()).toBe("1");
      expect(cache.peek("k")?.body.toString()).toBe("1");
      expect(reads).toHaveLength(2);

      reads[1]?.resolve(page("2"));
      await settle();
      // Past the first answer's end, the second, read at 80 % of it, lives on.
      clock.advance(TTL * 0.5);
      expect(cache.peek("k")?.body.toString()).toBe("2");
      expect(reads).toHaveLength(2);
    });

    it("keeps the bound: an answer whose background read has not landed still expires on time", async () => {
      const { cache, clock } = handCache();
      const { later: slow, load } = firstThen(page("1"));
      await cache.get("k", load);
      clock.advance(TTL * 0.9);
      expect(cache.peek("k")?.body.toString()).toBe("1");
      clock.advance(TTL * 0.1);
      expect(cache.peek("k")).toBeUndefined();
      // A request now waits for that read, begun 100 ms ago: its answer is within the bound.
      const waiting = cache.get("k", async () => page("not needed"));
      slow.resolve(page("2"));
      expect((await waiting).body.toString()).toBe("2");
    });

    it("lets a key nobody asks for expire instead of reading it for ever", async () => {
      const { cache, clock } = handCache();
      let reads = 0;
      await cache.get("k", async () => page(String(++reads)));
      clock.advance(TTL);
      expect(cache.peek("k")).toBeUndefined();
      await settle();
      expect(reads).toBe(1);
    });

    it("does not keep a background read that overlapped a change of a product the answer shows", async () => {
      const { cache, clock } = handCache();
      const { later: refresh, load } = firstThen(page("1", ["a"]));
      await cache.get("k", load);
      clock.advance(TTL * 0.8);
      cache.peek("k");
      cache.productChanged("a");
      refresh.resolve(page("read before the change", ["a"]));
      await settle();
      expect(cache.peek("k")).toBeUndefined();
      expect((await cache.get("k", async () => page("fresh", ["a"]))).body.toString()).toBe("fresh");
    });

    it("keeps the same answer object when the bytes read again are the same", async () => {
      const { cache, clock } = handCache();
      const first = await cache.get("k", async () => page("same"));
      const firstBody = first.body;
      clock.advance(TTL * 0.8);
      cache.peek("k");
      await settle();
      clock.advance(TTL * 0.5);
      // Past the first read's end: it lives on with the background read's time, and its bytes.
      expect(cache.peek("k")).toBe(first);
      expect(cache.peek("k")?.body).toBe(firstBody);
    });

    it("counts an answer read again with the same bytes as the newest when the cache is full", async () => {
      const { cache, clock } = handCache();
      const hot = await cache.get("hot", async () => page("same"));
      // 1,000 answers fill the cache; the hot one is the oldest of them.
      for (let i = 1; i < 1_000; i++) await cache.get(`other ${i}`, async () => page(String(i)));
      clock.advance(TTL * 0.8);
      cache.peek("hot");
      await settle();
      await cache.get("one more", async () => page("new"));
      expect(cache.peek("hot")).toBe(hot);
      expect(cache.peek("other 1")).toBeUndefined();
    });

    it("leaves an answer to expire when its background read fails, and says so; the next request reads and fails itself", async () => {
      const { cache, clock, failed } = handCache();
      let up = true;
      const load = async () => {
        if (!up) throw new Error("down");
        return page("1");
      };
      await cache.get("k", load);
      up = false;
      clock.advance(TTL * 0.8);
      expect(cache.peek("k")?.body.toString()).toBe("1");
      await settle();
      expect(failed).toEqual(["k"]);
      expect(cache.peek("k")?.body.toString()).toBe("1");
      clock.advance(TTL * 0.2);
      await expect(cache.get("k", load)).rejects.toThrow("down");
    });
  });

  it("forgets a failed read, so the next request tries again", async () => {
    const cache = liveCache();
    await expect(cache.get("k", async () => Promise.reject(new Error("down")))).rejects.toThrow("down");
    expect((await cache.get("k", async () => page("up"))).body.toString()).toBe("up");
  });

  it("tells whether a change a replica may not show yet was heard within a time (read replicas)", () => {
    const clock = handClock();
    const cache = new CatalogCache(1_000, clock.now);
    // Not listening: anything may have changed.
    expect(cache.changedWithin(5_000, [])).toBe(true);
    cache.setLive(true);
    // Starting to listen counts as a change of everything: what came before is unknown.
    expect(cache.changedWithin(5_000, [])).toBe(true);
    clock.advance(5_001);
    expect(cache.changedWithin(5_000, ["a"])).toBe(false);
    cache.productChanged("a");
    expect(cache.changedWithin(5_000, ["b"])).toBe(false);
    expect(cache.changedWithin(5_000, ["b", "a"])).toBe(true);
    clock.advance(5_001);
    expect(cache.changedWithin(5_000, ["a"])).toBe(false);
    cache.everythingChanged();
    expect(cache.changedWithin(5_000, [])).toBe(true);
    clock.advance(5_001);
    expect(cache.changedWithin(5_000, ["a"])).toBe(false);
  });
});
