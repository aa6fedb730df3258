import pg from "pg";

/** PostgreSQL channel on which every instance hears that the catalog changed (changes.ts sends). */
export const CATALOG_CHANNEL = "gearhouse_catalog";
/** The payload of a change that may touch any product (added, renamed, repriced, moved). */
export const EVERYTHING = "";
const RECONNECT_DELAY_MS = 1_000;

export interface CatalogEvents {
  /** The listener is connected and listening (true), or cut off and about to retry (false). */
  live(live: boolean): void;
  productChanged(productId: string): void;
  everythingChanged(): void;
}

/**
 * Listens on its own connection (LISTEN needs a session of its own: not a pooled one, and not one
 * through PgBouncer in transaction mode), reconnecting after a second whenever it is cut off.
 */
export class CatalogListener {
  private client: pg.Client | undefined;
  private timer: NodeJS.Timeout | undefined;
  private closed = false;
  private wasLive = false;

  constructor(
    private readonly options: pg.ClientConfig,
    private readonly events: CatalogEvents,
    private readonly log: { warn(obj: unknown, msg: string): void },
  ) {}

  /** Resolves after the first attempt to connect, whether it succeeded or not (it keeps retrying). */
  start(): Promise<void> {
    return this.connect();
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.timer);
    const client = this.client;
    this.client = undefined;
    await client?.end().catch(() => {});
  }

  private async connect(): Promise<void> {
    // Keep-alive probes find a connection a network cut left half open, which would stop notifications silently.
    const client = new pg.Client({ ...this.options, keepAlive: true });
    this.client = client;
    let lost = false;
    const onLost = (error?: Error) => {
      if (lost || this.client !== client) return;
      lost = true;
      this.client = undefined;
      this.events.live(false);
      client.end().catch(() => {});
      if (this.closed) return;
      // Once per outage, not once per retry.
      if (this.wasLive)
        this.log.warn({ err: error }, "catalog change listener lost its connection; retrying");
      this.wasLive = false;
      this.timer = setTimeout(() => void this.connect(), RECONNECT_DELAY_MS);
      this.timer.unref();
    };
    client.on("error", onLost);
    client.on("end", () => onLost());
    client.on("notification", (message) => {
      if (message.channel !== CATALOG_CHANNEL) return;
      if (message.payload) this.events.productChanged(message.payload);
      else this.events.everythingChanged();
    });
    try {
      await client.connect();
      await client.query(`listen ${CATALOG_CHANNEL}`);
    } catch (error) {
      onLost(error as Error);
      return;
    }
    if (this.client !== client) return;
    this.wasLive = true;
    this.events.live(true);
  }
}
