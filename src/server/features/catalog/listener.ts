import pg from "pg";

/** PostgreSQL channel on which every instance hears that the catalog changed (changes.ts sends). */
export const CATALOG_CHANNEL = "gearhouse_catalog";
/** The payload of a change that may touch any product (added, renamed, repriced, moved). */
export const EVERYTHING = "";
/** The listener's connection, by name in pg_stat_activity (its last query is not always LISTEN). */
export const LISTENER_APPLICATION_NAME = "gearhouse catalog listener";
const RECONNECT_DELAY_MS = 1_000;
/**
 * Products named in one gathered notice statement (a notification's payload is one id): past this
 * many waiting, one "everything changed" is sent instead, which every instance understands.
 */
const MAX_ANNOUNCED = 1_000;

/** The server process of a connection (pg sets it on connecting; its types leave it out). */
const backendPid = (client: pg.Client) => (client as unknown as { processID: number | null }).processID;

export interface CatalogEvents {
  /** The listener is connected and listening (true), or cut off and about to retry (false). */
  live(live: boolean): void;
  productChanged(productId: string): void;
  everythingChanged(): void;
}

/**
 * Listens on its own connection (LISTEN needs a session of its own: not a pooled one, and not one
 * through PgBouncer in transaction mode), reconnecting after a second whenever it is cut off.
 *
 * It also tells the other instances of the stock changes this one made (`announce`), after their
 * commit and gathered: one statement on this connection names every product changed since the
 * last one went. A booking's own commit sends no notification: a transaction that notifies holds
 * PostgreSQL's notification lock from its commit until its WAL is flushed, so bookings that each
 * notified committed one at a time (docs/decisions/order-stalls.md). Notices not yet sent when the
 * connection is cut off go once it is back; one lost is covered by the cache's 1 s bound.
 */
export class CatalogListener {
  private client: pg.Client | undefined;
  private timer: NodeJS.Timeout | undefined;
  private closed = false;
  private wasLive = false;
  /** Products changed here, committed, not yet told; EVERYTHING when there were too many. */
  private readonly unannounced = new Set<string>();
  private sending = false;
  /** The send under way, or the last one: close waits for it. */
  private sent: Promise<void> = Promise.resolve();

  constructor(
    private readonly options: pg.ClientConfig,
    private readonly events: CatalogEvents,
    private readonly log: { warn(obj: unknown, msg: string): void },
  ) {}

  /** Resolves after the first attempt to connect, whether it succeeded or not (it keeps retrying). */
  start(): Promise<void> {
    return this.connect();
  }

  /**
   * Tells every other instance, soon after, that this instance committed a change of the stock of
   * `productId` (changes.ts). Statements go one at a time; what comes meanwhile goes in the next.
   */
  announce(productId: string): void {
    if (this.unannounced.size >= MAX_ANNOUNCED) {
      this.unannounced.clear();
      this.unannounced.add(EVERYTHING);
    } else this.unannounced.add(productId);
    this.sendAnnouncements();
  }

  /** Starts sending what waits, unless a send is under way (it goes on with what came meanwhile). */
  private sendAnnouncements(): void {
    if (this.sending) return;
    this.sending = true;
    this.sent = this.sendWaiting().finally(() => {
      this.sending = false;
    });
  }

  private async sendWaiting(): Promise<void> {
    // Only on a listening connection: one cut off gets what waits once it is back (connect).
    for (let client = this.live(); this.unannounced.size > 0 && client; client = this.live()) {
      const ids = [...this.unannounced];
      this.unannounced.clear();
      try {
        // Nothing waits for this commit's WAL to reach the disk: a notice lost in a crash only
        // leaves other instances' answers to their 1 s bound.
        await client.query(
          `select set_config('synchronous_commit', 'off', true), pg_notify($1, id)
           from unnest($2::text[]) as id`,
          [CATALOG_CHANNEL, ids],
        );
      } catch (error) {
        // Cut off (onLost logs the outage): they go once the connection is back. Refused on a
        // connection still up (a statement timeout, say): they go with the next announcement.
        for (const id of ids) this.unannounced.add(id);
        if (this.live() === client)
          this.log.warn({ err: error }, "catalog change notices not sent; they go with the next ones");
        return;
      }
    }
  }

  /** The connection, while it listens. */
  private live(): pg.Client | undefined {
    return this.wasLive ? this.client : undefined;
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.timer);
    // What this instance changed last is told before it goes.
    await this.sent;
    const client = this.client;
    this.client = undefined;
    await client?.end().catch(() => {});
  }

  private async connect(): Promise<void> {
    // Keep-alive probes find a connection a network cut left half open, which would stop notifications silently.
    const client = new pg.Client({
      ...this.options,
      keepAlive: true,
      application_name: LISTENER_APPLICATION_NAME,
    });
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
      // This instance's own notices: its cache dropped those answers at its commit.
      if (message.channel !== CATALOG_CHANNEL || message.processId === backendPid(client)) return;
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
    this.sendAnnouncements();
  }
}
