import type { FastifyReply } from "fastify";
import { z } from "zod";

/**
 * Whether an If-None-Match header names this ETag (or any, with `*`). RFC 9110 compares
 * If-None-Match weakly, so a `W/` prefix does not matter.
 */
export function matchesEtag(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  return ifNoneMatch
    .split(",")
    .map((tag) => tag.trim().replace(/^W\//, ""))
    .some((tag) => tag === "*" || tag === etag);
}

/** The OpenAPI description of a 304 answer. */
export const notModifiedSchema = z
  .null()
  .describe("Not modified: the client's copy (If-None-Match) is current");

/** A 304 without a body (a serialised `null` would be sent as the four bytes "null"). */
export function sendNotModified(reply: FastifyReply): FastifyReply {
  return reply.code(304).send();
}
