import { randomUUID } from "node:crypto";
import { createWriteStream, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { readdir, rm, stat, unlink } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";

/** An upload written to the spool: its file and its size in bytes. */
export interface SpooledUpload {
  file: string;
  size: number;
}

const PREFIX = "upload-spool-";
/**
 * A spool's name says whose it is: upload-spool-<host>-<pid>-<start>-<6 random characters, mkdtemp's>,
 * <start> being when the process started (Linux's clock ticks since boot; 0 where unknown).
 */
const OWNED = /^upload-spool-([A-Za-z0-9.]+)-(\d+)-(\d+)-[A-Za-z0-9]{6}$/;
/** A spool of a version before its owner was named: removed once nothing changed in it for this long. */
const UNNAMED_STALE_MS = 24 * 60 * 60 * 1000;

/** This machine's name as it goes in a spool's name. */
const thisHost = () => os.hostname().replace(/[^A-Za-z0-9.]/g, "") || "host";

/**
 * When process `pid` started, from /proc (field 22 of its stat, after the name in parentheses),
 * "gone" when it does not run, undefined where there is no /proc to ask.
 */
function startOf(pid: number | "self"): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19] ?? "0";
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT" && startOf("self") !== undefined) return "gone";
    return undefined;
  }
}

/**
 * Whether the process that made a spool still runs: its id runs and, where /proc tells, started
 * when the spool's name says. A container's server has the same id at each start, and another
 * process may take a dead one's id: the start tells them apart.
 */
function ownerRuns(pid: number, start: string): boolean {
  const now = startOf(pid);
  if (now === "gone") return false;
  if (now !== undefined && start !== "0") return now === start;
  try {
    // A signal 0 checks without sending anything.
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it runs, as another user.
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * Where uploads wait for the image worker: each in a file of its own, written piece by piece as
 * the socket delivers it, in a directory this process made for itself in the data directory
 * (upload-spool-<host>-<pid>-<start>-*, removed on close; instances sharing a data directory each
 * have their own). The server holds no upload's bytes for longer than one write: held while an upload
 * arrived and waited for the worker, the pieces outlived two young-generation collections, and
 * their megabytes, promoted, made V8 mark the whole heap every second or two. Measured with 4
 * uploads of a 2.5 MB JPEG beside the product list at 15,000 req/s (`npm run bench`, uploads
 * beside browsing): 7 full collections in 8 s and the list's p99 6.6 times as high as without
 * uploads, with the bytes held in pieces.
 *
 * Its size is bounded: an upload reserves the most its body can bring before the body is read,
 * and none is read while the reservations would pass `maxBytes` (issue 28: 40 parallel uploads of
 * one account once put 167 MB in it at once).
 */
export class UploadSpool {
  private directory: string | undefined;
  private reserved = 0;

  /**
   * `parent`: where the spool's directory is made (the shop's DATA_DIR), on the first upload;
   * `maxBytes`: what the uploads being received may reserve together (UPLOAD_SPOOL_MB).
   */
  constructor(
    private readonly parent: string,
    private readonly maxBytes: number,
  ) {}

  /** Bytes reserved by the uploads being received now. */
  get reservedBytes(): number {
    return this.reserved;
  }

  /**
   * Reserves room for an upload of at most `bytes`, or undefined when the spool has none left. The
   * returned function gives it back (once, however often it is called).
   */
  reserve(bytes: number): (() => void) | undefined {
    if (this.reserved + bytes > this.maxBytes) return undefined;
    this.reserved += bytes;
    let given = false;
    return () => {
      if (given) return;
      given = true;
      this.reserved -= bytes;
    };
  }

  /** Writes `stream` to a new file; the caller releases it. A stream that fails leaves no file. */
  async receive(stream: Readable): Promise<SpooledUpload> {
    this.directory ??= mkdtempSync(
      path.join(this.parent, `${PREFIX}${thisHost()}-${process.pid}-${startOf("self") ?? 0}-`),
    );
    const file = path.join(this.directory, randomUUID());
    const out = createWriteStream(file, { flags: "wx" });
    try {
      await pipeline(stream, out);
    } catch (error) {
      await this.release(file);
      throw error;
    }
    return { file, size: out.bytesWritten };
  }

  /** Removes an upload's file; one already gone is no error. */
  async release(file: string): Promise<void> {
    await unlink(file).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== "ENOENT") throw error;
    });
  }

  /**
   * Removes the spools that a process killed before it could close left in the data directory:
   * those of this machine whose process no longer runs. A spool of another machine sharing the
   * directory is never touched, nor one of a running process (another instance, or this one); an
   * unnamed one (an older version's) once nothing changed in it for a day. Returns the names
   * removed.
   */
  async removeStale(): Promise<string[]> {
    const host = thisHost();
    const removed: string[] = [];
    for (const name of await readdir(this.parent).catch(() => [] as string[])) {
      if (!name.startsWith(PREFIX)) continue;
      const full = path.join(this.parent, name);
      const owner = OWNED.exec(name);
      let stale: boolean;
      if (owner) {
        stale = owner[1] === host && !ownerRuns(Number(owner[2]), owner[3] ?? "0");
      } else {
        const info = await stat(full).catch(() => undefined);
        stale = info?.isDirectory() === true && Date.now() - info.mtimeMs > UNNAMED_STALE_MS;
      }
      if (!stale) continue;
      await rm(full, { recursive: true, force: true });
      removed.push(name);
    }
    return removed;
  }

  /** Removes the directory with whatever is left in it. */
  close(): void {
    if (this.directory) rmSync(this.directory, { recursive: true, force: true });
    this.directory = undefined;
  }
}
