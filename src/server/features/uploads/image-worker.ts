// The image worker: a child process (see encoder.ts) that checks and re-encodes uploads, so that
// decoding a large photo never competes with the server's event loop for its priority or memory.
import { HttpProblem } from "../../lib/problem.js";
import type { EncodeReply, EncodeRequest } from "./encoder.js";
import { encodeForStorage } from "./service.js";

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
