// The image worker: a child process (see encoder.ts) that checks and re-encodes uploads, so that
// decoding a large photo takes neither the event loop's CPU nor the server's memory.
import { HttpProblem } from "../../lib/problem.js";
import type { EncodeReply, EncodeRequest } from "./encoder.js";
import { encodeForStorage } from "./reencode.js";

process.on("message", async ({ id, bytes }: EncodeRequest) => {
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
});

// The server is gone (stopped, or killed without a chance to stop its children): so is the work.
process.on("disconnect", () => process.exit(0));
