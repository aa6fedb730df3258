import { fork } from "node:child_process";
import { once } from "node:events";
import os from "node:os";
import { fileURLToPath } from "node:url";
import sharp from "sharp";
import { afterEach, describe, expect, it } from "vitest";
import { HttpProblem } from "../../lib/problem.js";
import { ImageEncoder } from "./encoder.js";

const png = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 3, background: { r: 200, g: 40, b: 90 } } })
    .png()
    .toBuffer();

let encoder: ImageEncoder;
afterEach(() => encoder?.close());

describe("ImageEncoder", () => {
  it("re-encodes in a child process that runs below the server's priority", async () => {
    encoder = new ImageEncoder();
    const image = await encoder.encode(await png(40, 30));
    expect(image).toMatchObject({ width: 40, height: 30, key: expect.stringMatching(/^[a-f0-9]{64}$/) });
    expect(image.data.subarray(8, 12).toString("latin1")).toBe("WEBP");
    const pid = encoder.workerPid ?? 0;
    expect(pid).not.toBe(process.pid);
    expect(os.getPriority(pid)).toBeGreaterThan(os.getPriority(process.pid));
  });

  it("refuses what is not an image with the same problem as in process", async () => {
    encoder = new ImageEncoder();
    const refused = encoder.encode(Buffer.from("<svg xmlns='http://www.w3.org/2000/svg'/>"));
    await expect(refused).rejects.toBeInstanceOf(HttpProblem);
    await expect(refused).rejects.toMatchObject({ status: 415 });
  });

  it("fails only the upload whose worker died, and starts a new worker for the next", async () => {
    encoder = new ImageEncoder();
    await encoder.encode(await png(8, 8));
    const first = encoder.workerPid ?? 0;
    const big = await png(3000, 3000);
    const doomed = encoder.encode(big);
    const next = encoder.encode(await png(16, 16));
    process.kill(first, "SIGKILL");
    await expect(doomed).rejects.toThrow("image worker exited");
    expect(await next).toMatchObject({ width: 16, height: 16 });
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
    await expect(encoder.encode(await png(8, 8))).rejects.toThrow("stopping");
  });
});
