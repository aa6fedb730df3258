import { type ChildProcess, fork } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { HttpProblem } from "../../lib/problem.js";
import { inSpan } from "../../lib/tracing.js";
import type { StorableImage } from "./reencode.js";

export interface EncodeRequest {
  id: number;
  /** The upload's file in the spool (spool.ts), read by the worker when the upload's turn comes. */
  file: string;
}

/**
 * How a request reaches the worker: on its standard input, the id, the owner's number (see
 * ImageEncoder.owners) and the byte length of the file's path (32 bits each, big-endian), then the
 * path. The upload's bytes never pass through this process again: the worker reads them from the
 * spool's file itself.
 */
export const FRAME_HEADER_BYTES = 12;

export type EncodeReply =
  | { id: number; ok: true; data: Uint8Array; width: number; height: number; key: string }
  | { id: number; ok: false; problem: { status: number; title: string; detail?: string } }
  | { id: number; ok: false; message: string };

/**
 * The lowest priority: when both want the CPU, the event loop (every other request) goes first;
 * when it is idle, the worker has the whole core. Measured with 4 uploads beside the product list
 * (`npm run bench`, uploads beside browsing), 10 still left the list's p99 about twice as high as
 * 19 does.
 */
const WORKER_NICENESS = 19;

/**
 * Linux's chrt, which starts the worker under SCHED_IDLE: it runs only on CPU time no normal task
 * wants, and a woken request preempts it at once. Niceness alone did not do that under the EEVDF
 * scheduler (Linux 6.6 on): with the worker sharing the server's core, 4 uploads beside the product
 * list made its p99 2.5 to 7 times as high (`npm run bench`, uploads beside browsing). Where there
 * is no chrt the worker runs at WORKER_NICENESS only.
 */
const CHRT = ["/usr/bin/chrt", "/bin/chrt"].find((file) => existsSync(file));
/**
 * An image takes well under a second of CPU; a worker that has spent this much CPU time on one is
 * stuck: it is killed and the uploads it held refused. Measured in CPU time, not on the clock, so
 * a worker that only waits for a core (it runs at the lowest priority, on a busy machine) is never
 * taken for a stuck one.
 */
const JOB_CPU_LIMIT_MS = 30_000;
/** A job is given up after this long whatever CPU it used (a worker blocked without using any). */
const JOB_WALL_LIMIT_MS = 300_000;
/** How often the running job's CPU time is read. */
const JOB_CHECK_MS = 1_000;
/** A worker unused this long exits, giving back the memory that decoding photos took. */
const IDLE_EXIT_MS = 30_000;

const here = fileURLToPath(import.meta.url);
/** Run from the sources (tests, dev), the worker is TypeScript too. */
const fromSources = here.endsWith(".ts");
const WORKER_FILE = path.join(path.dirname(here), `image-worker.${fromSources ? "ts" : "js"}`);

/** The CPU time a process has run, in milliseconds (Linux's /proc/PID/schedstat); undefined elsewhere. */
function cpuTimeMs(pid: number | undefined): number | undefined {
  if (!pid) return undefined;
  try {
    return Number(readFileSync(`/proc/${pid}/schedstat`, "utf8").split(" ")[0]) / 1e6;
  } catch {
    return undefined;
  }
}

interface Job {
  owner: string;
  resolve(image: StorableImage): void;
  reject(error: Error): void;
}

/**
 * Re-encodes uploads in a child process at a lower priority, one at a time. Each upload goes to
 * the worker as soon as it has arrived (its file's name: the bytes are in the spool), and the
 * worker keeps the queue: a photo is read and decoded in the worker only when its turn comes.
 * Turns go round the uploads' owners (fair-queue.ts), so one account's backlog delays another's
 * upload by about one image. Started on the first upload, ended when idle. A worker that dies or
 * hangs takes the uploads it holds with it: they fail, and the next upload starts a new worker.
 */
export class ImageEncoder {
  private worker: ChildProcess | undefined;
  /** Sent to the worker and not answered yet, by id; the worker answers them in its own order. */
  private readonly pending = new Map<number, Job>();
  /** The number each owner with pending uploads goes by in the frames, and how many it has. */
  private readonly owners = new Map<string, { number: number; jobs: number }>();
  private nextId = 1;
  private nextOwner = 1;
  private jobTimer: NodeJS.Timeout | undefined;
  private idleTimer: NodeJS.Timeout | undefined;
  private closed = false;

  /** Uploads sent to the worker and not answered yet: the one it encodes and those queued. */
  get queued(): number {
    return this.pending.size;
  }

  /** The running worker's process id, while there is one. */
  get workerPid(): number | undefined {
    return this.worker?.pid;
  }

  /**
   * Re-encodes the upload in `file` (the spool's, which the caller removes once this settles) of
   * `owner` (an account's id), in its turn among the owners waiting.
   */
  encode(file: string, owner: string): Promise<StorableImage> {
    if (this.closed) return Promise.reject(new Error("the server is stopping"));
    // Its wait in the queue and the worker's re-encoding, as one span of the upload's request.
    return inSpan("image encode", {}, () => this.queue(file, owner));
  }

  private queue(file: string, owner: string): Promise<StorableImage> {
    return new Promise((resolve, reject) => {
      const id = this.nextId++;
      const known = this.owners.get(owner);
      const numbered = known ?? { number: this.nextOwner++, jobs: 0 };
      this.send(id, numbered.number, file);
      numbered.jobs += 1;
      if (!known) this.owners.set(owner, numbered);
      this.pending.set(id, { owner, resolve, reject });
      clearTimeout(this.idleTimer);
      if (this.pending.size === 1) this.startJobTimer();
    });
  }

  close(): void {
    this.closed = true;
    clearTimeout(this.idleTimer);
    this.stopWorker(new Error("the server is stopping"));
  }

  /** One write of the frame: its header and the file's path. */
  private send(id: number, owner: number, file: string): void {
    const input = this.startedWorker().stdin;
    // Never so with stdio "pipe"; were it so, the upload fails now rather than at the time-out.
    if (!input) throw new Error("the image worker has no input");
    const name = Buffer.from(file, "utf8");
    const frame = Buffer.allocUnsafe(FRAME_HEADER_BYTES + name.length);
    frame.writeUInt32BE(id, 0);
    frame.writeUInt32BE(owner, 4);
    frame.writeUInt32BE(name.length, 8);
    name.copy(frame, FRAME_HEADER_BYTES);
    input.write(frame);
  }

  /**
   * The worker takes one of the pending uploads now (it works on one at a time, from when the
   * previous one is answered): it has JOB_CPU_LIMIT_MS of CPU time for it.
   */
  private startJobTimer(): void {
    clearInterval(this.jobTimer);
    const pid = this.worker?.pid;
    const startedAt = Date.now();
    const cpuAtStart = cpuTimeMs(pid);
    this.jobTimer = setInterval(() => {
      const elapsed = Date.now() - startedAt;
      const cpu = cpuTimeMs(pid);
      // Without /proc (not Linux) the clock stands in for the CPU time.
      const used = cpu !== undefined && cpuAtStart !== undefined ? cpu - cpuAtStart : elapsed;
      if (used > JOB_CPU_LIMIT_MS || elapsed > JOB_WALL_LIMIT_MS)
        this.stopWorker(new Error("image worker timed out"));
    }, JOB_CHECK_MS);
  }

  private startedWorker(): ChildProcess {
    if (this.worker) return this.worker;
    const nodeArgs = fromSources ? ["--import", "tsx"] : [];
    const worker = fork(WORKER_FILE, [], {
      // fork runs `execPath ...execArgv WORKER_FILE`: chrt, which then runs node with the IPC channel.
      ...(CHRT
        ? { execPath: CHRT, execArgv: ["--idle", "0", process.execPath, ...nodeArgs] }
        : { execArgv: nodeArgs }),
      serialization: "advanced",
      stdio: ["pipe", "inherit", "inherit", "ipc"],
    });
    // A worker that died mid-write fails its job through "exit"; the broken pipe adds nothing.
    worker.stdin?.on("error", () => {});
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
    const job = this.pending.get(reply.id);
    if (!job) return;
    this.pending.delete(reply.id);
    this.forget(job.owner);
    clearInterval(this.jobTimer);
    if (this.pending.size > 0) this.startJobTimer();
    else {
      this.idleTimer = setTimeout(() => this.stopWorker(), IDLE_EXIT_MS);
      this.idleTimer.unref();
    }
    if (reply.ok) {
      const data = Buffer.from(reply.data.buffer, reply.data.byteOffset, reply.data.byteLength);
      job.resolve({ data, width: reply.width, height: reply.height, key: reply.key });
    } else if ("problem" in reply) {
      const { status, title, detail } = reply.problem;
      job.reject(new HttpProblem(status, title, detail));
    } else {
      job.reject(new Error(reply.message));
    }
  }

  /** Ends the worker; the uploads it held, if any, fail with `error`. */
  private stopWorker(error?: Error): void {
    const worker = this.worker;
    this.worker = undefined;
    worker?.kill();
    clearInterval(this.jobTimer);
    const failed = [...this.pending.values()];
    this.pending.clear();
    this.owners.clear();
    for (const job of failed) job.reject(error ?? new Error("image worker stopped"));
  }

  /** One upload of `owner` is answered; an owner with none left gives up its number. */
  private forget(owner: string): void {
    const numbered = this.owners.get(owner);
    if (numbered && --numbered.jobs === 0) this.owners.delete(owner);
  }
}
