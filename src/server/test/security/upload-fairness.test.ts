import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { uploadQuotas } from "../../db/schema/index.js";
import { setUpTestApp } from "../app.js";
import { noisyJpeg, postUpload, tinyPng, UPLOADS_UNLIMITED } from "../images.js";
import { until } from "../until.js";
import type { TestUser } from "../users.js";

/**
 * Fair uploads (README.md, Guarantees): with 40 of one account's uploads in flight, another user's
 * 136-byte upload took 20.2 s (0.04 s idle): the image worker took uploads first come, first
 * served. It now takes turns between accounts, so a backlog delays another account's upload by
 * about one image. Counted in completions, not in seconds, so it holds on a machine of any speed or
 * load.
 */

const BACKLOG = 8;
/**
 * A photo the worker takes about 40 ms of CPU for (1200 x 1200 took 345 ms). The worker runs under
 * SCHED_IDLE, so beside two busy processes (`stress-ng --cpu 2`) it gets the CPU only now and then:
 * ten of the larger ones did not finish within the test's 180 s there. The order of completions is
 * what is tested, and a smaller photo keeps the backlog a backlog all the same.
 */
const PHOTO_SIDE = 400;

// One account's backlog: more uploads under way at once than UPLOAD_CONCURRENCY_PER_ACCOUNT allows.
const ctx = setUpTestApp(UPLOADS_UNLIMITED);
const heavy = ctx.signedUpUser({ name: "Backlog Uploader" });
const light = ctx.signedUpUser({ name: "Quick Uploader" });

const upload = (user: TestUser, bytes: Uint8Array) => postUpload(ctx.app, user.cookie, bytes, "image/jpeg");

describe("fair turns at the image worker", () => {
  it(`lets another account's upload pass a backlog of ${BACKLOG} photos after at most 2 of them`, async () => {
    const [photo, small] = await Promise.all([noisyJpeg(PHOTO_SIDE, PHOTO_SIDE), tinyPng(1)]);
    const finished: string[] = [];
    const send = (user: TestUser, bytes: Uint8Array, label: string) =>
      upload(user, bytes).then((res) => {
        expect(res.statusCode, res.body).toBe(201);
        finished.push(label);
      });
    const backlog = Array.from({ length: BACKLOG }, () => send(heavy, photo, "A"));
    // Every one of them counted, so each is at the worker or on its way there.
    await until(`the ${BACKLOG} uploads to be counted`, async () => {
      const [row] = await ctx.database.db
        .select({ count: uploadQuotas.count })
        .from(uploadQuotas)
        .where(eq(uploadQuotas.userId, heavy.id));
      return row?.count === BACKLOG;
    });
    const doneBefore = finished.length;
    const quick = send(light, small, "B");
    await Promise.all([...backlog, quick]);

    // The other upload really came behind a backlog, longer than the 2 it may wait for…
    expect(BACKLOG - doneBefore, finished.join(" ")).toBeGreaterThanOrEqual(3);
    // …and waited for the photo under way when it came, and perhaps the next (first come, first
    // served, it waited for all of them).
    const passedIt = finished.indexOf("B") - doneBefore;
    expect(passedIt, finished.join(" ")).toBeLessThanOrEqual(2);
  });
});
