import { spawnSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdirSync, readFileSync, utimesSync, writeFileSync } from "node:fs";
import { readdir, stat } from "node:fs/promises";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import type { FastifyInstance } from "fastify";
import { describe, expect, it } from "vitest";
import { MAX_UPLOAD_BYTES } from "../../../shared/constants.js";
import { uploadMessages } from "../../../shared/messages/uploads.js";
import { anotherInstance, setUpTestApp, testConfig } from "../app.js";
import { postUpload, tinyPng, uploadQuotaOf } from "../images.js";
import { multipartImage } from "../route-cases.js";
import { until } from "../until.js";
import { ORIGIN, signUp, type TestUser } from "../users.js";

/**
 * The upload spool is bounded (README.md, Guarantees; issue 28): 40 parallel 5 MB uploads from one
 * fresh account once put 167 MB in DATA_DIR/upload-spool-* at once. Now an account has at most
 * UPLOAD_CONCURRENCY_PER_ACCOUNT (2) uploads under way (429 with Retry-After beyond), each counted
 * against the day's quota before its body is read; the spool's reservations stay within
 * UPLOAD_SPOOL_MB (503 with Retry-After before the body is read); and the spools of a killed
 * process are removed at the next start.
 */

const ctx = setUpTestApp({}, { rateLimit: { max: 1000, windowSeconds: 60 } });

/** 5 MB that is no image: received whole, then refused by its content (415). */
const notAnImage = Buffer.alloc(MAX_UPLOAD_BYTES, 0x41);

const upload = (app: FastifyInstance, user: TestUser, bytes: Uint8Array) =>
  postUpload(app, user.cookie, bytes, "application/octet-stream");

/** The files in the data directory's spools and their bytes on disk, read now. */
async function spooled(dataDir: string): Promise<{ files: number; bytes: number }> {
  let files = 0;
  let bytes = 0;
  for (const dir of await readdir(dataDir)) {
    if (!dir.startsWith("upload-spool-")) continue;
    for (const file of await readdir(path.join(dataDir, dir)).catch(() => [])) {
      const info = await stat(path.join(dataDir, dir, file)).catch(() => undefined);
      if (!info) continue;
      files++;
      bytes += info.size;
    }
  }
  return { files, bytes };
}

/**
 * An upload of a 5 MB file over a socket of its own, whose body stops after its first 64 kB until
 * `finish` sends the rest: the server has begun to spool it and waits for more.
 */
function stalledUpload(address: string, user: TestUser) {
  const boundary = `----gearhouse${randomUUID()}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="image"; filename="big.bin"\r\n` +
      "Content-Type: application/octet-stream\r\n\r\n",
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const first = 64 * 1024;
  const request = http.request(`${address}/api/uploads`, {
    method: "POST",
    headers: {
      origin: ORIGIN,
      cookie: user.cookie,
      "content-type": `multipart/form-data; boundary=${boundary}`,
      "content-length": head.length + notAnImage.length + tail.length,
    },
  });
  const answer = new Promise<number>((resolve, reject) => {
    request.on("response", (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    request.on("error", reject);
  });
  request.write(head);
  request.write(notAnImage.subarray(0, first));
  return {
    answer,
    finish: () => {
      request.end(Buffer.concat([notAnImage.subarray(first), tail]));
      return answer;
    },
  };
}

const quotaOf = (user: TestUser) => uploadQuotaOf(ctx.database.db, user);

describe("the upload spool", () => {
  it("holds at most 2 uploads of one account when it sends 40 of 5 MB at once", async () => {
    const user = await signUp(ctx.app, { name: "Spool Flooder" });
    const { dataDir } = ctx.config;
    // Measured on disk while the uploads run, at every turn of the event loop.
    let most = { files: 0, bytes: 0 };
    let running = true;
    const sampling = (async () => {
      while (running) {
        const now = await spooled(dataDir);
        most = { files: Math.max(most.files, now.files), bytes: Math.max(most.bytes, now.bytes) };
        await new Promise((r) => setImmediate(r));
      }
    })();
    const body = await multipartImage(notAnImage, "big.bin", "application/octet-stream");
    const answers = await Promise.all(
      Array.from({ length: 40 }, () =>
        ctx.app.inject({
          method: "POST",
          url: "/api/uploads",
          headers: { ...body.headers, origin: ORIGIN, cookie: user.cookie },
          payload: body.payload,
        }),
      ),
    );
    running = false;
    await sampling;
    // At most the account's 2 places' files on disk at any time (it was all 40: 167 MB).
    expect(most.files, JSON.stringify(most)).toBeLessThanOrEqual(2);
    expect(most.bytes, JSON.stringify(most)).toBeLessThanOrEqual(2 * MAX_UPLOAD_BYTES);
    const statuses = answers.map((res) => res.statusCode);
    // Each refused: by its content once read (415), or before its body was read (429).
    expect(new Set(statuses), statuses.join(" ")).toEqual(new Set([415, 429]));
    const refusedEarly = answers.find((res) => res.statusCode === 429);
    expect(refusedEarly?.headers["retry-after"]).toBe("2");
    expect(refusedEarly?.json().detail).toBe(uploadMessages.tooManyAtOnce(2));
    // Nothing left behind, and nothing of the day used.
    expect(await spooled(dataDir)).toEqual({ files: 0, bytes: 0 });
    expect(await quotaOf(user)).toBeUndefined();
  });

  it("counts uploads under way against the day before reading them, and refuses a third with 429", async () => {
    const address = await ctx.app.listen({ port: 0, host: "127.0.0.1" });
    const user = await signUp(ctx.app, { name: "Patient Flooder" });
    const other = await signUp(ctx.app, { name: "Other Uploader" });
    const stalled = [stalledUpload(address, user), stalledUpload(address, user)];
    await until(
      "both uploads are being spooled",
      async () => (await spooled(ctx.config.dataDir)).files === 2,
    );
    // Both counted in the day already, as the most their files can be.
    expect(await quotaOf(user)).toEqual({ count: 2, bytes: 2 * MAX_UPLOAD_BYTES });

    const third = await upload(ctx.app, user, notAnImage);
    expect(third.statusCode).toBe(429);
    expect(third.headers["retry-after"]).toBe("2");
    expect(third.json().detail).toBe(uploadMessages.tooManyAtOnce(2));
    expect(third.json().detail).toMatch(/^You can upload at most 2 images at a time\./);
    // Another account's uploads are its own.
    expect((await upload(ctx.app, other, await tinyPng(1))).statusCode).toBe(201);

    expect(await Promise.all(stalled.map((s) => s.finish()))).toEqual([415, 415]);
    // Refused, they gave the day back, and the account's places are free again.
    expect(await quotaOf(user)).toBeUndefined();
    expect((await upload(ctx.app, user, await tinyPng(2))).statusCode).toBe(201);
    expect((await quotaOf(user))?.count).toBe(1);
  });
});

describe("a full spool", () => {
  const instance = anotherInstance(() => ctx.url);

  it("answers 503 with Retry-After before reading a body it has no room for", async () => {
    // Room for two uploads of 5 MB with their framing (5.0625 MB each), not three.
    const config = testConfig({ UPLOAD_SPOOL_MB: "11", UPLOAD_CONCURRENCY_PER_ACCOUNT: "10" });
    const small = await instance(config, 4);
    const address = await small.listen({ port: 0, host: "127.0.0.1" });
    const users = await Promise.all([0, 1, 2].map((i) => signUp(ctx.app, { name: `Spool User ${i}` })));
    const [a, b, c] = users as [TestUser, TestUser, TestUser];
    const stalled = [stalledUpload(address, a), stalledUpload(address, b)];
    await until("both uploads are being spooled", async () => (await spooled(config.dataDir)).files === 2);

    const refused = await upload(small, c, notAnImage);
    expect(refused.statusCode).toBe(503);
    expect(refused.headers["content-type"]).toMatch(/^application\/problem\+json/);
    expect(refused.headers["retry-after"]).toBe("5");
    expect(refused.json().detail).toBe(uploadMessages.spoolFull);
    // Refused before its body was read: never spooled, nothing of its day used.
    expect((await spooled(config.dataDir)).files).toBe(2);
    expect(await quotaOf(c)).toBeUndefined();

    expect(await Promise.all(stalled.map((s) => s.finish()))).toEqual([415, 415]);
    // Room again: received, and refused only by its content.
    expect((await upload(small, c, notAnImage)).statusCode).toBe(415);
    expect((await upload(small, c, await tinyPng(3))).statusCode).toBe(201);
  });
});

describe("at start", () => {
  const instance = anotherInstance(() => ctx.url);

  /** When process `pid` started, as the spool names it (field 22 of /proc/<pid>/stat). */
  const startOf = (pid: number) => {
    const line = readFileSync(`/proc/${pid}/stat`, "utf8");
    return line.slice(line.lastIndexOf(")") + 2).split(" ")[19];
  };

  it("removes the spools of processes that no longer run, and no other", async () => {
    const config = testConfig();
    const host = os.hostname().replace(/[^A-Za-z0-9.]/g, "");
    // A process that ran and ended: its id is free.
    const ended = spawnSync(process.execPath, ["-e", ""]).pid;
    const parent = process.ppid;
    const folders = {
      killed: `upload-spool-${host}-${ended}-${startOf(process.pid)}-aaaaaa`,
      // This process's id but another start: a container's server before its restart.
      restarted: `upload-spool-${host}-${process.pid}-1-bbbbbb`,
      running: `upload-spool-${host}-${parent}-${startOf(parent)}-cccccc`,
      otherMachine: `upload-spool-elsewhere-${ended}-1-dddddd`,
      unnamedOld: "upload-spool-eeeeee",
      unnamedRecent: "upload-spool-ffffff",
    };
    for (const name of Object.values(folders)) {
      mkdirSync(path.join(config.dataDir, name));
      writeFileSync(path.join(config.dataDir, name, randomUUID()), Buffer.alloc(1024));
    }
    const twoDaysAgo = new Date(Date.now() - 2 * 24 * 60 * 60 * 1000);
    utimesSync(path.join(config.dataDir, folders.unnamedOld), twoDaysAgo, twoDaysAgo);

    await (await instance(config, 2)).ready();
    const left = (await readdir(config.dataDir)).filter((n) => n.startsWith("upload-spool-")).sort();
    expect(left).toEqual([folders.running, folders.otherMachine, folders.unnamedRecent].sort());
  });
});
