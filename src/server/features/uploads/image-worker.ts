// The image worker: a child process (see encoder.ts) that checks and re-encodes uploads, so that
// decoding a large photo takes neither the event loop's CPU nor the server's memory.
import { HttpProblem } from "../../lib/problem.js";
import { type EncodeReply, type EncodeRequest, FRAME_HEADER_BYTES } from "./encoder.js";
import { FairQueue } from "./fair-queue.js";
import { encodeForStorage } from "./reencode.js";

async function encode({ id, bytes }: EncodeRequest): Promise<void> {
  let reply: EncodeReply;
  try {
    const image = await encodeForStorage(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
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

/** The requests on standard input (see FRAME_HEADER_BYTES), each queued once all its bytes are in. */
const pieces: Buffer[] = [];
let buffered = 0;
process.stdin.on("data", (piece: Buffer) => {
  pieces.push(piece);
  buffered += piece.length;
  for (;;) {
    if (buffered < FRAME_HEADER_BYTES) break;
    // Joined to read a header that arrived split, and then once per request, never per piece.
    if ((pieces[0]?.length ?? 0) < FRAME_HEADER_BYTES) pieces.splice(0, pieces.length, Buffer.concat(pieces));
    const head = pieces[0] as Buffer;
    const end = FRAME_HEADER_BYTES + head.readUInt32BE(8);
    if (buffered < end) break;
    const all = pieces.length === 1 ? head : Buffer.concat(pieces, buffered);
    pieces.length = 0;
    buffered -= end;
    if (buffered > 0) pieces.push(all.subarray(end));
    waiting.push(all.readUInt32BE(4), {
      id: all.readUInt32BE(0),
      bytes: all.subarray(FRAME_HEADER_BYTES, end),
    });
  }
  if (!busy) void work();
});

// The server is gone (stopped, or killed without a chance to stop its children): so is the work,
// also when that happened while this module was loading.
process.on("disconnect", () => process.exit(0));
if (!process.connected) process.exit(0);
