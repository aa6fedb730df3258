import { and, eq, gt, sql } from "drizzle-orm";
import { uploadMessages } from "../../../shared/messages/uploads.js";
import type { UploadQuota } from "../../config.js";
import type { Db } from "../../db/client.js";
import { uploadQuotas } from "../../db/schema/index.js";
import { TooManyRequests } from "../../lib/problem.js";

/**
 * A day's uploads per account: a fixed window of 24 hours from the first upload after the last
 * window ended (not a rolling one), so one row per account says all. Bursting across the end of a
 * window can take up to twice a day's quota within a few minutes; never more.
 */
const DAY_SECONDS = 24 * 60 * 60;
const MB = 1024 * 1024;

/**
 * An upload counted against its account's day: counted before its body is read as the most it
 * can bring, settled to the bytes it brought, given back when it is not stored after all.
 */
export interface Reservation {
  /** Counts `bytes` (at most what was reserved) instead of what was reserved. */
  settle(bytes: number): Promise<void>;
  release(): Promise<void>;
}

const windowEnded = sql`${uploadQuotas.windowStart} <= now() - make_interval(secs => ${DAY_SECONDS})`;

/**
 * Why the account cannot upload `incoming` more bytes now, judged by its row as it stands, or
 * undefined when it can (also when its window has ended).
 */
async function refusal(
  db: Db,
  userId: string,
  quota: UploadQuota,
  incoming: number,
): Promise<TooManyRequests | undefined> {
  const [row] = await db
    .select({
      count: uploadQuotas.count,
      bytes: uploadQuotas.bytes,
      secondsLeft: sql<number>`ceil(extract(epoch from ${uploadQuotas.windowStart} + make_interval(secs => ${DAY_SECONDS}) - now()))::int`,
    })
    .from(uploadQuotas)
    .where(
      and(
        eq(uploadQuotas.userId, userId),
        gt(uploadQuotas.windowStart, sql`now() - make_interval(secs => ${DAY_SECONDS})`),
      ),
    );
  if (!row) return undefined;
  const countFull = row.count >= quota.count;
  if (!countFull && row.bytes + incoming <= quota.bytes) return undefined;
  const retryAfter = Math.max(1, row.secondsLeft);
  const wait = uploadMessages.wait(retryAfter);
  const detail = countFull
    ? uploadMessages.dailyCount(quota.count, wait)
    : uploadMessages.dailyBytes(Math.floor(quota.bytes / MB), wait);
  return new TooManyRequests(detail, retryAfter);
}

/**
 * Counts an upload of `bytes` against its account's day before it is encoded, or throws a 429 with
 * `Retry-After` and counts nothing. One statement takes the count and the bytes together, only
 * while both stay within the quota (or opens a new window), so concurrent uploads of one account
 * can never pass the quota together, whichever instance they reach.
 */
export async function reserveUpload(
  db: Db,
  userId: string,
  quota: UploadQuota,
  bytes: number,
): Promise<Reservation> {
  // A refusal is looked up after the fact; should the window have ended in between, once more.
  for (let attempt = 1; ; attempt++) {
    const [reserved] = await db
      .insert(uploadQuotas)
      .values({ userId, windowStart: sql`now()`, count: 1, bytes })
      .onConflictDoUpdate({
        target: uploadQuotas.userId,
        set: {
          windowStart: sql`case when ${windowEnded} then now() else ${uploadQuotas.windowStart} end`,
          count: sql`case when ${windowEnded} then 1 else ${uploadQuotas.count} + 1 end`,
          bytes: sql`case when ${windowEnded} then ${bytes} else ${uploadQuotas.bytes} + ${bytes} end`,
        },
        setWhere: sql`${windowEnded} or (${uploadQuotas.count} < ${quota.count} and ${uploadQuotas.bytes} + ${bytes} <= ${quota.bytes})`,
      })
      // As text: a Date would lose the microseconds that `release` matches on.
      .returning({ windowStart: sql<string>`${uploadQuotas.windowStart}::text` });
    if (reserved) {
      let counted = bytes;
      return {
        settle: async (received) => {
          const back = counted - received;
          if (back <= 0) return;
          await giveBackBytes(db, userId, reserved.windowStart, back);
          counted = received;
        },
        release: () => release(db, userId, reserved.windowStart, counted),
      };
    }
    const refused = await refusal(db, userId, quota, bytes);
    if (refused || attempt === 2) throw refused ?? new Error("upload quota: no window to reserve in");
  }
}

const inWindow = (userId: string, windowStart: string) =>
  and(eq(uploadQuotas.userId, userId), eq(uploadQuotas.windowStart, sql`${windowStart}::timestamptz`));

/** Gives bytes reserved and not received back to the window they were counted in, if that still runs. */
async function giveBackBytes(db: Db, userId: string, windowStart: string, bytes: number): Promise<void> {
  await db
    .update(uploadQuotas)
    .set({ bytes: sql`greatest(${uploadQuotas.bytes} - ${bytes}, 0)` })
    .where(inWindow(userId, windowStart));
}

/**
 * Gives an upload's count and bytes back to the window it was counted in, if that still runs. A
 * window with no upload left goes, so refused uploads leave no trace. Counted down first, then
 * removed at 0: two uploads given back at once each take their one away in turn (a removal "at 1"
 * first saw 2 for both, and both then counted down, leaving a window of 0).
 */
async function release(db: Db, userId: string, windowStart: string, bytes: number): Promise<void> {
  const counted = inWindow(userId, windowStart);
  const [left] = await db
    .update(uploadQuotas)
    .set({ count: sql`${uploadQuotas.count} - 1`, bytes: sql`greatest(${uploadQuotas.bytes} - ${bytes}, 0)` })
    .where(counted)
    .returning({ count: uploadQuotas.count });
  if (left?.count === 0) await db.delete(uploadQuotas).where(and(counted, eq(uploadQuotas.count, 0)));
}
