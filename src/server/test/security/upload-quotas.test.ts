import { count, eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { uploadMessages } from "../../../shared/messages/uploads.js";
import { images, uploadQuotas, users } from "../../db/schema/index.js";
import { setUpTestApp } from "../app.js";
import { postUpload, tinyPng, uploadQuotaOf } from "../images.js";
import { ORIGIN, signUp, type TestUser } from "../users.js";

/**
 * Upload quotas (README.md, Guarantees): one new account once stored 34 MB of images in 17 s, and
 * nothing stopped it. Each account may upload a day's quota (a count and the bytes as received,
 * configurable; admins, who add products, have their own); past it the upload is refused with 429,
 * `Retry-After` and the limit in words, and counts nowhere.
 */

const DAY = 24 * 60 * 60;
const MB = 1024 * 1024;

const ctx = setUpTestApp(
  {
    UPLOAD_LIMIT_PER_DAY: "3",
    UPLOAD_MB_PER_DAY: "5",
    ADMIN_UPLOAD_LIMIT_PER_DAY: "5",
    ADMIN_UPLOAD_MB_PER_DAY: "50",
    // Uploads at once have a test of their own (upload-spool.test.ts): here twelve go together.
    UPLOAD_CONCURRENCY_PER_ACCOUNT: "100",
  },
  { rateLimit: { max: 1000, windowSeconds: 60 } },
);

let seed = 0;
/** A different small PNG each time. */
const freshPng = () => tinyPng(seed++);

const upload = (user: TestUser, bytes: Uint8Array) => postUpload(ctx.app, user.cookie, bytes);

async function imageRows(): Promise<number> {
  const [row] = await ctx.database.db.select({ n: count() }).from(images);
  return row?.n ?? -1;
}

const quotaOf = (user: TestUser) => uploadQuotaOf(ctx.database.db, user);

/** The 429's problem, checked for its form; its detail is returned. */
function refusal(res: Awaited<ReturnType<typeof upload>>): { detail: string; retryAfter: number } {
  expect(res.statusCode, res.body).toBe(429);
  expect(res.headers["content-type"]).toMatch(/^application\/problem\+json/);
  const retryAfter = Number(res.headers["retry-after"]);
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(DAY);
  return { detail: (res.json() as { detail: string }).detail, retryAfter };
}

describe("per-account daily upload quotas", () => {
  it("refuses the upload past the day's count with 429, Retry-After and the limit, counting it nowhere", async () => {
    const user = await signUp(ctx.app, { name: "Daily Uploader" });
    for (let i = 0; i < 3; i++) expect((await upload(user, await freshPng())).statusCode).toBe(201);
    const stored = await imageRows();
    const counted = await quotaOf(user);
    expect(counted?.count).toBe(3);

    const { detail, retryAfter } = refusal(await upload(user, await freshPng()));
    expect(detail).toBe(uploadMessages.dailyCount(3, uploadMessages.wait(retryAfter)));
    expect(detail).toMatch(/^You can upload at most 3 images a day\. Try again in 24 hours\.$/);
    expect(await imageRows()).toBe(stored);
    expect(await quotaOf(user)).toEqual(counted);

    // Another account's day is its own.
    const other = await signUp(ctx.app, { name: "Other Uploader" });
    expect((await upload(other, await freshPng())).statusCode).toBe(201);
  });

  it("lets exactly the day's count through when one account sends 12 uploads at once", async () => {
    const user = await signUp(ctx.app, { name: "Burst Uploader" });
    const pngs = await Promise.all(Array.from({ length: 12 }, freshPng));
    const before = await imageRows();
    const answers = await Promise.all(pngs.map((png) => upload(user, png)));
    const statuses = answers.map((res) => res.statusCode).sort();
    expect(statuses).toEqual([...Array(3).fill(201), ...Array(9).fill(429)]);
    expect(await imageRows()).toBe(before + 3);
    expect((await quotaOf(user))?.count).toBe(3);
  });

  it("counts the bytes as received, whatever the stored image weighs", async () => {
    const user = await signUp(ctx.app, { name: "Heavy Uploader" });
    // A valid PNG followed by 2 MB that the re-encoding drops: received 2 MB, stored a few bytes.
    const padded = Buffer.concat([await freshPng(), Buffer.alloc(2 * MB, 0x20)]);
    for (let i = 0; i < 2; i++) expect((await upload(user, padded)).statusCode).toBe(201);
    expect(await quotaOf(user)).toEqual({ count: 2, bytes: 2 * padded.length });

    const { detail, retryAfter } = refusal(await upload(user, padded));
    expect(detail).toBe(uploadMessages.dailyBytes(5, uploadMessages.wait(retryAfter)));
    expect(detail).toMatch(/^You can upload at most 5 MB of images a day\./);
    // What still fits is taken.
    expect((await upload(user, await freshPng())).statusCode).toBe(201);
  });

  it("gives back what a refused upload counted: files that are not images use none of the day", async () => {
    const user = await signUp(ctx.app, { name: "Clumsy Uploader" });
    const notAnImage = (i: number) => upload(user, Buffer.from(`not an image, attempt ${i}`));
    for (let i = 0; i < 5; i++) expect((await notAnImage(i)).statusCode).toBe(415);
    expect(await quotaOf(user)).toBeUndefined();
    for (let i = 0; i < 2; i++) expect((await upload(user, await freshPng())).statusCode).toBe(201);
    const counted = await quotaOf(user);
    expect((await notAnImage(5)).statusCode).toBe(415);
    expect(await quotaOf(user)).toEqual(counted);
    expect((await upload(user, await freshPng())).statusCode).toBe(201);
  });

  it("refuses an account whose day is used up before reading its upload", async () => {
    const user = await signUp(ctx.app, { name: "Spent Uploader" });
    for (let i = 0; i < 3; i++) expect((await upload(user, await freshPng())).statusCode).toBe(201);
    // An unfinished body would be a 400 if it were read.
    const res = await ctx.app.inject({
      method: "POST",
      url: "/api/uploads",
      headers: { origin: ORIGIN, cookie: user.cookie, "content-type": "multipart/form-data; boundary=x" },
      payload: '--x\r\nContent-Disposition: form-data; name="image"; filename="a.png"\r\n\r\nunfinished',
    });
    expect(refusal(res).detail).toMatch(/^You can upload at most 3 images a day\./);
  });

  it("opens a new day 24 hours after the first upload of the last one", async () => {
    const user = await signUp(ctx.app, { name: "Patient Uploader" });
    for (let i = 0; i < 3; i++) expect((await upload(user, await freshPng())).statusCode).toBe(201);
    expect((await upload(user, await freshPng())).statusCode).toBe(429);
    await ctx.database.db
      .update(uploadQuotas)
      .set({ windowStart: sql`now() - interval '23 hours 59 minutes'` })
      .where(eq(uploadQuotas.userId, user.id));
    const almost = refusal(await upload(user, await freshPng()));
    expect(almost.retryAfter).toBeLessThanOrEqual(60);
    expect(almost.detail).toMatch(/Try again in 1 minute\.$/);
    await ctx.database.db
      .update(uploadQuotas)
      .set({ windowStart: sql`now() - interval '24 hours'` })
      .where(eq(uploadQuotas.userId, user.id));
    expect((await upload(user, await freshPng())).statusCode).toBe(201);
    expect((await quotaOf(user))?.count).toBe(1);
  });

  it("gives admins, who add products, a quota of their own (ADMIN_UPLOAD_LIMIT_PER_DAY)", async () => {
    const admin = await signUp(ctx.app, { name: "Catalog Admin" });
    await ctx.database.db.update(users).set({ role: "admin" }).where(eq(users.id, admin.id));
    for (let i = 0; i < 5; i++) expect((await upload(admin, await freshPng())).statusCode).toBe(201);
    const { detail, retryAfter } = refusal(await upload(admin, await freshPng()));
    expect(detail).toBe(uploadMessages.dailyCount(5, uploadMessages.wait(retryAfter)));
  });
});
