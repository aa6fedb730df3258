import { sql } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import type { Db } from "../../db/client.js";
import { oldestBatch } from "../../lib/batched.js";
import { type PeriodicJob, startPeriodicJob } from "../../lib/periodic.js";
import { IMAGE_URL_PREFIX, IMAGE_URL_SUFFIX } from "./service.js";

/** How long an image no product or order uses is kept: time to upload it and then save the order or product. */
const UNUSED_IMAGE_GRACE_SECONDS = 24 * 60 * 60;
/** Images looked at by one statement: its work stays the same whatever the size of the shop. */
const SWEEP_BATCH = 500;

export interface SweepResult {
  /** Unused images removed. */
  removed: number;
  /** Images found in use, no longer looked at until a product or order lets go of them. */
  kept: number;
}

/**
 * One bounded step of the image sweep. It looks only at images released more than the grace
 * period ago (the partial index image_released_idx): the oldest SWEEP_BATCH of them, each
 * checked against products and orders by their indexes on the image URL (product_image_idx,
 * order_img_idx). Those in use are marked kept (released_at null) and are not looked at again
 * until a product or order lets go of them (the trigger image_release sets released_at anew);
 * the others are removed. So its work grows with the uploads and releases since the last sweep,
 * never with the number of images, products or orders.
 *
 * Safe beside another instance's sweep (SKIP LOCKED: each takes other images) and beside a product
 * or order that lets go of an image meanwhile: that update waits for this statement's lock, or this
 * statement, finding the image changed, leaves it. An image that a product or order starts to use
 * after the grace period, just as it is removed, would be lost; nothing of the shop's does that (a
 * new upload, or the same image uploaded again, is given a fresh grace period).
 */
export async function sweepUnusedImages(
  db: Db,
  { graceSeconds = UNUSED_IMAGE_GRACE_SECONDS, batch = SWEEP_BATCH } = {},
): Promise<SweepResult> {
  const url = sql`${IMAGE_URL_PREFIX} || due.key || ${IMAGE_URL_SUFFIX}`;
  const released = sql`select key from image where released_at < now() - make_interval(secs => ${graceSeconds})`;
  const result = await db.execute<{ removed: number; kept: number }>(sql`
    with due as (${oldestBatch(released, sql`released_at`, batch)}), used as (
      select key from due
      where exists (select 1 from product where product.image = ${url})
         or exists (select 1 from "order" where "order".img = ${url})
    ), kept as (
      update image set released_at = null where key in (select key from used) returning key
    ), removed as (
      delete from image
      where key in (select key from due) and key not in (select key from used)
      returning key
    )
    select (select count(*) from removed)::int as removed, (select count(*) from kept)::int as kept`);
  const row = result.rows[0];
  return { removed: row?.removed ?? 0, kept: row?.kept ?? 0 };
}

/**
 * Runs the sweep every `intervalSeconds`, one bounded batch after another while full batches come
 * back. The timer keeps no process alive; `stop` ends it and waits for a sweep under way.
 */
export function startImageSweeper(db: Db, intervalSeconds: number, log: FastifyBaseLogger): PeriodicJob {
  return startPeriodicJob(
    intervalSeconds,
    async (stopped) => {
      try {
        let removed = 0;
        for (;;) {
          const step = await sweepUnusedImages(db);
          removed += step.removed;
          if (stopped() || step.removed + step.kept < SWEEP_BATCH) break;
        }
        if (removed > 0) log.info({ removed }, "unused images removed");
      } catch (error) {
        log.error({ err: error }, "image sweep failed");
      }
    },
    "image sweep",
  );
}
