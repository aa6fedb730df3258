import { createHash } from "node:crypto";

/**
 * How long a cached catalog answer may be served without asking PostgreSQL again. Changes made
 * through the shop reach every instance's cache within milliseconds (see listener.ts); this bound
 * holds even when a notification is lost (a listener cut off, PgBouncer in transaction mode, a
 * change made with plain SQL): no instance shows a product, or its stock, older than this.
 */
export const CATALOG_CACHE_TTL_MS = 1_000;
/**
 * Past this share of its life, the first request served an answer also starts reading it again in
 * the background, while it and every request after it are still answered from the stored one. A
 * key asked for steadily is replaced before it expires: none of its requests waits for the
 * database, nor goes the route's slow way, each second. A key nobody asks for just expires.
 */
const REFRESH_AHEAD_SHARE = 0.75;
/** Searches are free text, so the number of distinct pages is bounded here, not by the catalog. */
const MAX_ENTRIES = 1_000;
/** Past this many products changed one by one, forgetting everything is cheaper than tracking them. */
const MAX_TRACKED_PRODUCTS = 10_000;

export interface CachedBody {
  /** The serialized JSON answer, sent as is. */
  body: Buffer;
  /** Strong validator of exactly these bytes. */
  etag: string;
}

export interface Loaded {
  body: Buffer;
  /** The products the answer shows: a stock change of any other product leaves it valid. */
  productIds: readonly string[];
}

interface Entry extends CachedBody {
  productIds: ReadonlySet<string>;
  expiresAt: number;
  /** When to start reading it again in the background; Infinity once that has started. */
  refreshAt: number;
  /** How it was read, to read it again. */
  load: () => Promise<Loaded>;
}

export function strongEtag(body: Buffer): string {
  return `"${createHash("sha256").update(body).digest("base64url").slice(0, 32)}"`;
}

/**
 * Serialized catalog answers (product list pages per normalized query, product details), shared
 * by all requests of one instance. Concurrent misses of one key share a single database read, and
 * an answer in steady demand is read again shortly before it expires (REFRESH_AHEAD_SHARE).
 *
 * An answer read before a change and finished after it must not be kept: every invalidation gets
 * a number (`epoch`), and a read stores its answer only when nothing it shows changed since it
 * began. Until `setLive(true)` (the instance hears other instances' changes) nothing is kept.
 */
export class CatalogCache {
  private readonly entries = new Map<string, Entry>();
  private readonly inflight = new Map<string, { read: Promise<CachedBody>; expiresAt: number }>();
  private epoch = 0;
  private everythingChangedAt = 0;
  private readonly productChangedAt = new Map<string, number>();
  /** When (the clock's ms) everything, and each product, last changed: for reads from a replica. */
  private everythingChangedTime = Number.NEGATIVE_INFINITY;
  private readonly productChangedTime = new Map<string, number>();
  private live = false;
  private announce: (productId: string) => void = () => {};

  constructor(
    private readonly ttlMs = CATALOG_CACHE_TTL_MS,
    /** The clock, in milliseconds; tests pass their own. */
    private readonly now: () => number = Date.now,
    /** Told of a background read that failed (nobody waits on it to meet the error). */
    private readonly onRefreshFailed: (key: string, error: unknown) => void = () => {},
  ) {}

  get size(): number {
    return this.entries.size;
  }

  /**
   * Whether everything, or one of `productIds`, changed within the last `ms` as far as this
   * instance has heard (its own writes and the notifications), or it has not been listening: a
   * replica up to `ms` behind may not show such a change yet (routes.ts, readCatalog).
   */
  changedWithin(ms: number, productIds: readonly string[]): boolean {
    if (!this.live) return true;
    const since = this.now() - ms;
    if (this.everythingChangedTime > since) return true;
    return productIds.some((id) => (this.productChangedTime.get(id) ?? Number.NEGATIVE_INFINITY) > since);
  }

  /** Starts or stops keeping answers, as the listener connects or is cut off. */
  setLive(live: boolean): void {
    // Changes made while nobody listened are unknown: start again from nothing either way.
    this.everythingChanged();
    this.live = live;
  }

  /**
   * The stored answer for `key` while it is within its time to live. Never waits for a read, but
   * late in the answer's life starts one in the background that replaces it when it lands.
   */
  peek(key: string): CachedBody | undefined {
    const hit = this.entries.get(key);
    if (!hit) return undefined;
    const now = this.now();
    if (hit.expiresAt <= now) return undefined;
    if (hit.refreshAt <= now) {
      hit.refreshAt = Number.POSITIVE_INFINITY;
      // Nobody waits on it: a failed read is reported, and leaves the answer to expire; the next
      // request after that reads, and meets the failure, itself.
      if (!this.inflight.has(key))
        this.read(key, hit.load).catch((error) => this.onRefreshFailed(key, error));
    }
    return hit;
  }

  async get(key: string, load: () => Promise<Loaded>): Promise<CachedBody> {
    const hit = this.peek(key);
    if (hit) return hit;
    // A read slower than the time to live would make its waiters' answer older than the bound.
    const pending = this.inflight.get(key);
    if (pending && pending.expiresAt > this.now()) return pending.read;
    return this.read(key, load);
  }

  private read(key: string, load: () => Promise<Loaded>): Promise<CachedBody> {
    const startedAt = this.epoch;
    // From the start of the read: the database's snapshot is no older than this.
    const readAt = this.now();
    const expiresAt = readAt + this.ttlMs;
    const read = load()
      .then(({ body, productIds }): CachedBody => {
        const entry: Entry = {
          body,
          etag: strongEtag(body),
          productIds: new Set(productIds),
          expiresAt,
          refreshAt: readAt + this.ttlMs * REFRESH_AHEAD_SHARE,
          load,
        };
        if (!this.live || this.changedSince(startedAt, productIds)) return entry;
        return this.store(key, entry);
      })
      .finally(() => {
        if (this.inflight.get(key)?.read === read) this.inflight.delete(key);
      });
    this.inflight.set(key, { read, expiresAt });
    return read;
  }

  /** A product's stock changed: only the answers that show it are dropped. */
  productChanged(productId: string): void {
    this.epoch += 1;
    if (this.productChangedAt.size >= MAX_TRACKED_PRODUCTS) {
      this.everythingChanged();
      return;
    }
    this.productChangedAt.set(productId, this.epoch);
    this.productChangedTime.set(productId, this.now());
    for (const [key, entry] of this.entries) {
      if (entry.productIds.has(productId)) this.entries.delete(key);
    }
    // A read already under way may have missed the change; later requests must not wait for it.
    this.inflight.clear();
  }

  /**
   * A change of a product's stock this instance committed: dropped here at once, and told to the
   * other instances (announceWith: the listener sends it just after, gathered with others).
   */
  productChangedHere(productId: string): void {
    this.productChanged(productId);
    this.announce(productId);
  }

  /** Who tells the other instances of the stock changes made here (cache-plugin.ts: the listener). */
  announceWith(announce: (productId: string) => void): void {
    this.announce = announce;
  }

  /** Anything may have changed (a product added, renamed, repriced, moved): every answer is dropped. */
  everythingChanged(): void {
    this.epoch += 1;
    this.everythingChangedAt = this.epoch;
    this.everythingChangedTime = this.now();
    // Older than this, a product's change says no more than this one does.
    this.productChangedTime.clear();
    this.productChangedAt.clear();
    this.entries.clear();
    this.inflight.clear();
  }

  private changedSince(epoch: number, productIds: readonly string[]): boolean {
    if (this.everythingChangedAt > epoch) return true;
    return productIds.some((id) => (this.productChangedAt.get(id) ?? 0) > epoch);
  }

  /**
   * Keeps what `read` read as the answer for `key`, as the newest (the oldest goes first when the
   * cache is full), and returns what is kept: an answer read again with the same bytes stays the
   * same object with the new read's life, so what callers made from it (its compressed copies, its
   * prepared headers) is made once, not once a second.
   */
  private store(key: string, read: Entry): Entry {
    const kept = this.entries.get(key);
    // Only the life changes: the kept bytes (and what was made from them) are those just read.
    const entry =
      kept?.etag === read.etag
        ? Object.assign(kept, {
            productIds: read.productIds,
            expiresAt: read.expiresAt,
            refreshAt: read.refreshAt,
            load: read.load,
          })
        : read;
    this.entries.delete(key);
    if (this.entries.size >= MAX_ENTRIES) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    this.entries.set(key, entry);
    return entry;
  }
}
