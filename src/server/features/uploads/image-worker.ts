// The image worker: a child process (see encoder.ts) that checks and re-encodes uploads, so that
// decoding a large photo takes neither the event loop's CPU nor the server's memory.
import { readFile } from "node:fs/promises";
import { HttpProblem } from "../../lib/problem.js";
import { type EncodeReply, type EncodeRequest, FRAME_HEADER_BYTES } from "./encoder.js";
import { FairQueue } from "./fair-queue.js";
import { encodeForStorage } from "./reencode.js";

async function encode({ id, file }: EncodeRequest): Promise<void> {
  let reply: EncodeReply;
  try {
    const image = await encodeForStorage(await readFile(file));
    reply = { id, ok: true, data: image.data, width: image.width, height: image.height, key: image.key };
  } catch (error) {
    reply =
      error instanceof HttpProblem
        ? { id, ok: false, problem: { status: error.status, title: error.title, detail: error.detail } }
        : { id, ok: false, message: error instanceof Error ? error.message : String(error) };
  }
  process.send?.(reply);
}

/**
 * One at a time, so a single photo's decoding is all the memory this process takes; in turns
 * between the uploads' owners, so one account's backlog delays another's upload by at most the
 * one image being encoded when it arrives.
 */
const waiting = new FairQueue<number, EncodeRequest>();
let busy = false;

async function work(): Promise<void> {
  busy = true;
  try {
    for (let next = waiting.take(); next; next = waiting.take()) await encode(next);
  } finally {
    busy = false;
  }
}

/** The requests on standard input (see FRAME_HEADER_BYTES), each queued once all of it is in. */
let buffered: Buffer = Buffer.alloc(0);
process.stdin.on("data", (piece: Buffer) => {
  buffered = buffered.length === 0 ? piece : Buffer.concat([buffered, piece]);
  while (buffered.length >= FRAME_HEADER_BYTES) {
    const end = FRAME_HEADER_BYTES + buffered.readUInt32BE(8);
    if (buffered.length < end) break;
    waiting.push(buffered.readUInt32BE(4), {
      id: buffered.readUInt32BE(0),
      file: buffered.toString("utf8", FRAME_HEADER_BYTES, end),
    });
    buffered = buffered.subarray(end);
  }
  if (!busy) void work();
});

// The server is gone (stopped, or killed without a chance to stop its children): so is the work,
// also when that happened while this module was loading.
process.on("disconnect", () => process.exit(0));
if (!process.connected) process.exit(0);
