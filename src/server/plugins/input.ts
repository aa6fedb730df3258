import { Stream } from "node:stream";
import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import { commonMessages } from "../../shared/messages/common.js";
import { badRequest } from "../lib/problem.js";

/** Half a surrogate pair: it has no UTF-8 form at all. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
/** PostgreSQL text cannot hold U+0000; a lone surrogate cannot be written as UTF-8. */
const isUnstorable = (text: string) => text.includes("\u0000") || LONE_SURROGATE.test(text);

/**
 * Whether any string or key inside the value is one the database would refuse (a 500) or store
 * changed (node-postgres writes a lone surrogate as U+FFFD). Walks with an explicit stack, so a
 * body nested a million levels deep cannot overflow the call stack. A body left a stream (the CSV
 * import's) is its route's to check: walking it would walk the socket and server, round in circles.
 */
function hasUnstorableText(value: unknown): boolean {
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const item = pending.pop();
    if (typeof item === "string") {
      if (isUnstorable(item)) return true;
    } else if (Array.isArray(item)) {
      pending.push(...item);
    } else if (
      item !== null &&
      typeof item === "object" &&
      !Buffer.isBuffer(item) &&
      !(item instanceof Stream)
    ) {
      for (const [key, child] of Object.entries(item)) {
        if (isUnstorable(key)) return true;
        pending.push(child);
      }
    }
  }
  return false;
}

/**
 * Request text the shop stores exactly as sent, or refuses with 400 before any validation or
 * handler runs: JSON bodies must be valid UTF-8 (Fastify's own parser turns bad bytes into U+FFFD
 * without a word), and no body, query or path string may be unstorable (see hasUnstorableText).
 */
async function input(app: FastifyInstance) {
  // Fastify's parser, keeping its refusal of __proto__ and constructor.prototype keys.
  const parseJson = app.getDefaultJsonParser("error", "error");
  const utf8 = new TextDecoder("utf-8", { fatal: true });
  app.removeContentTypeParser("application/json");
  app.addContentTypeParser("application/json", { parseAs: "buffer" }, (request, body, done) => {
    let text: string;
    try {
      text = utf8.decode(body as Buffer);
    } catch {
      done(badRequest(commonMessages.unstorableText), undefined);
      return;
    }
    parseJson(request, text, done);
  });

  app.addHook("preValidation", async (request) => {
    if (
      hasUnstorableText(request.params) ||
      hasUnstorableText(request.query) ||
      hasUnstorableText(request.body)
    )
      throw badRequest(commonMessages.unstorableText);
  });
}

export default fp(input, { name: "input", dependencies: ["errors"] });
