import { type ChildProcess, fork } from "node:child_process";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { HttpProblem } from "../../lib/problem.js";
import type { StorableImage } from "./reencode.js";

export interface EncodeRequest {
  id: number;
  bytes: Uint8Array;
}

export type EncodeReply =
  | { id: number; ok: true; data: Uint8Array; width: number; height: number; key: string }
  | { id: number; ok: false; problem: { status: number; title: string; detail?: string } }
  | { id: number; ok: false; message: string };

/**
 * The lowest priority: when both want the CPU, the event loop (every other request) goes first;
 * when it is idle, the worker has the whole core. Measured with 4 uploads beside the product list
 * (`npm run bench`, P6), 10 still left the list's p99 about twice as high as 19 does.
 */
const WORKER_NICENESS = 19;
/** An image takes well under a second; a worker stuck this long is killed and the upload refused. */
const JOB_TIMEOUT_MS = 30_000;
/** A worker unused this long exits, giving back the memory that decoding photos took. */
const IDLE_EXIT_MS = 30_000;

const here = fileURLToPath(import.meta.url);
/** Run from the sources (tests, dev), the worker is TypeScript too. */
const fromSources = here.endsWith(".ts");
const WORKER_FILE = path.join(path.dirname(here), `image-worker.${fromSources ? "ts" : "js"}`);

interface Job {
  request: EncodeRequest;
  resolve(image: StorableImage): void;
  reject(error: Error): void;
}

/**
 * Re-encodes uploads in a child process at a lower priority, one at a time (uploads are rare; the
 * queue keeps the worker's memory to one photo). Started on the first upload, ended when idle.
 */
export class ImageEncoder {
  private worker: ChildProcess | undefined;
  private readonly queue: Job[] = [];
  private current: Job | undefined;
  private nextId = 1;
  private jobTimer: NodeJS.Timeout | undefined;
  private idleTimer: NodeJS.Timeout | undefined;
  private closed = false;

  /** The running worker's process id, while there is one. */
  get workerPid(): number | undefined {
    return this.worker?.pid;
  }

  encode(bytes: Buffer): Promise<StorableImage> {
    if (this.closed) return Promise.reject(new Error("the server is stopping"));
    return new Promise((resolve, reject) => {
      this.queue.push({ request: { id: this.nextId++, bytes }, resolve, reject });
      this.next();
    });
  }

  close(): void {
    this.closed = true;
    clearTimeout(this.idleTimer);
    for (const job of this.queue.splice(0)) job.reject(new Error("the server is stopping"));
    this.stopWorker(new Error("the server is stopping"));
  }

  private next(): void {
    if (this.current || this.closed) return;
    const job = this.queue.shift();
    if (!job) {
      clearTimeout(this.idleTimer);
      this.idleTimer = setTimeout(() => this.stopWorker(), IDLE_EXIT_MS);
      this.idleTimer.unref();
      return;
    }
    clearTimeout(this.idleTimer);
    this.current = job;
    this.jobTimer = setTimeout(() => this.stopWorker(new Error("image worker timed out")), JOB_TIMEOUT_MS);
    this.startedWorker().send(job.request);
  }

  private startedWorker(): ChildProcess {
    if (this.worker) return this.worker;
    const worker = fork(WORKER_FILE, [], {
      execArgv: fromSources ? ["--import", "tsx"] : [],
      serialization: "advanced",
      stdio: ["ignore", "inherit", "inherit", "ipc"],
    });
    if (worker.pid) os.setPriority(worker.pid, WORKER_NICENESS);
    worker.on("message", (reply: EncodeReply) => this.settle(reply));
    worker.on("error", (error) => {
      if (this.worker === worker) this.stopWorker(error);
    });
    worker.once("exit", () => {
      if (this.worker === worker) this.stopWorker(new Error("image worker exited"));
    });
    this.worker = worker;
    return worker;
  }

  private settle(reply: EncodeReply): void {
    const job = this.current;
    if (!job || job.request.id !== reply.id) return;
    clearTimeout(this.jobTimer);
    this.current = undefined;
    if (reply.ok) {
      const data = Buffer.from(reply.data.buffer, reply.data.byteOffset, reply.data.byteLength);
      job.resolve({ data, width: reply.width, height: reply.height, key: reply.key });
    } else if ("problem" in reply) {
      const { status, title, detail } = reply.problem;
      job.reject(new HttpProblem(status, title, detail));
    } else {
      job.reject(new Error(reply.message));
    }
    this.next();
  }

  /** Ends the worker; the job it had, if any, fails with `error` and the queue goes on. */
  private stopWorker(error?: Error): void {
    const worker = this.worker;
    this.worker = undefined;
    worker?.kill();
    clearTimeout(this.jobTimer);
    const job = this.current;
    this.current = undefined;
    if (job) {
      job.reject(error ?? new Error("image worker stopped"));
      this.next();
    }
  }
}
