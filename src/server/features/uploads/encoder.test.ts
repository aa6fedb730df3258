import { fork } from "node:child_process";
import { once } from "node:events";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import os from "node:os";
import { Readable } from "node:stream";
import { fileURLToPath } from "node:url";
import sharp from "sharp";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { HttpProblem } from "../../lib/problem.js";
import { noisyJpeg } from "../../test/images.js";
import { ImageEncoder } from "./encoder.js";
import { MAX_IMAGE_SIDE } from "./reencode.js";
import { UploadSpool } from "./spool.js";

const png = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 3, background: { r: 200, g: 40, b: 90 } } })
    .png()
    .toBuffer();

const OWNER = "account-1";

let encoder: ImageEncoder;
const spool = new UploadSpool(os.tmpdir(), Number.POSITIVE_INFINITY);
afterEach(() => encoder?.close());
afterAll(() => spool.close());

/** Bytes as the upload route hands them over: in a file of the spool. */
const spooled = async (bytes: Buffer | Promise<Buffer>) =>
  (await spool.receive(Readable.from([await bytes]))).file;

// The worker runs at the lowest priority: beside CPU hogs it waits for a core most of the time, so
// these tests take minutes on a busy machine (seconds on a quiet one). The limit is a safety net.
describe("ImageEncoder", { timeout: 600_000 }, () => {
  it("re-encodes in a child process that runs below the server's priority", async () => {
    encoder = new ImageEncoder();
    const image = await encoder.encode(await spooled(png(40, 30)), OWNER);
    expect(image).toMatchObject({ width: 40, height: 30, key: expect.stringMatching(/^[a-f0-9]{64}$/) });
    expect(image.data.subarray(8, 12).toString("latin1")).toBe("WEBP");
    const pid = encoder.workerPid ?? 0;
    expect(pid).not.toBe(process.pid);
    expect(os.getPriority(pid)).toBeGreaterThan(os.getPriority(process.pid));
    // And under SCHED_IDLE (policy 5), every thread of it, where Linux and chrt are there to do it.
    if (existsSync("/usr/bin/chrt") && existsSync(`/proc/${pid}/task`)) {
      const policies = readdirSync(`/proc/${pid}/task`).map(
        (tid) => /^policy\s*:\s*(\d+)/m.exec(readFileSync(`/proc/${pid}/task/${tid}/sched`, "utf8"))?.[1],
      );
      expect(new Set(policies)).toEqual(new Set(["5"]));
    }
  });

  it("reads uploads of megabytes from the spool, one after another", async () => {
    encoder = new ImageEncoder();
    const [large, larger] = await Promise.all([noisyJpeg(1800, 1500), noisyJpeg(2000, 1500)]);
    expect(large.length).toBeGreaterThan(1_000_000);
    const images = await Promise.all([
      encoder.encode(await spooled(large), OWNER),
      encoder.encode(await spooled(larger), OWNER),
    ]);
    // Each comes back fitted within MAX_IMAGE_SIDE, so each was read whole.
    expect(images.map(({ width, height }) => [width, height])).toEqual([
      [MAX_IMAGE_SIDE, Math.round((MAX_IMAGE_SIDE * 1500) / 1800)],
      [MAX_IMAGE_SIDE, (MAX_IMAGE_SIDE * 1500) / 2000],
    ]);
    // The same bytes again make the same image.
    expect((await encoder.encode(await spooled(large), OWNER)).key).toBe(images[0]?.key);
  });

  it("fails an upload whose file is not there, and goes on with the next", async () => {
    encoder = new ImageEncoder();
    const gone = await spooled(png(8, 8));
    await spool.release(gone);
    await expect(encoder.encode(gone, OWNER)).rejects.toThrow("ENOENT");
    expect(await encoder.encode(await spooled(png(9, 9)), OWNER)).toMatchObject({ width: 9, height: 9 });
  });

  it("takes turns between accounts: one's backlog of ten photos delays another's upload by one", async () => {
    encoder = new ImageEncoder();
    const [photo, small] = await Promise.all([spooled(noisyJpeg(1200, 1200)), spooled(png(16, 16))]);
    const finished: string[] = [];
    const queue = (owner: string, file: string) =>
      encoder.encode(file, owner).then(() => finished.push(owner));
    const backlog = Array.from({ length: 10 }, () => queue("A", photo));
    const other = queue("B", small);
    await Promise.all([...backlog, other]);
    // B arrives while A's first photo is encoded and is taken next (first come, it would be last).
    expect(finished.indexOf("B"), finished.join(" ")).toBeLessThanOrEqual(2);
    expect(finished.filter((owner) => owner === "A")).toHaveLength(10);
  });

  it("refuses what is not an image with the same problem as in process", async () => {
    encoder = new ImageEncoder();
    const refused = encoder.encode(
      await spooled(Buffer.from("<svg xmlns='http://www.w3.org/2000/svg'/>")),
      OWNER,
    );
    await expect(refused).rejects.toBeInstanceOf(HttpProblem);
    await expect(refused).rejects.toMatchObject({ status: 415 });
  });

  it("fails the uploads its dead worker held, and starts a new worker for the next", async () => {
    encoder = new ImageEncoder();
    await encoder.encode(await spooled(png(8, 8)), OWNER);
    const first = encoder.workerPid ?? 0;
    const [big, small] = await Promise.all([spooled(png(3000, 3000)), spooled(png(12, 12))]);
    const doomed = encoder.encode(big, OWNER);
    const queuedBehind = encoder.encode(small, OWNER);
    process.kill(first, "SIGKILL");
    await expect(doomed).rejects.toThrow("image worker exited");
    await expect(queuedBehind).rejects.toThrow("image worker exited");
    expect(await encoder.encode(await spooled(png(16, 16)), OWNER)).toMatchObject({ width: 16, height: 16 });
    expect(encoder.workerPid).not.toBe(first);
  });

  it("has a worker exit by itself once its server is gone", async () => {
    const worker = fork(fileURLToPath(new URL("./image-worker.ts", import.meta.url)), [], {
      execArgv: ["--import", "tsx"],
      serialization: "advanced",
    });
    await once(worker, "spawn");
    const exited = once(worker, "exit");
    worker.disconnect();
    expect(await exited).toEqual([0, null]);
  });

  it("refuses new work once closed", async () => {
    encoder = new ImageEncoder();
    encoder.close();
    await expect(encoder.encode(await spooled(png(8, 8)), OWNER)).rejects.toThrow("stopping");
  });
});
