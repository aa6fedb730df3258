import { z } from "zod";

/** One field a request got wrong, named by its path in the body or query ("items.0.quantity"). */
const fieldErrorSchema = z.object({ path: z.string(), message: z.string() });
export type FieldError = z.infer<typeof fieldErrorSchema>;

/**
 * Every error the API answers, as application/problem+json (RFC 9457): the server declares it on
 * its routes (src/server/lib/schemas.ts) and sends it from one mapping (src/server/plugins/errors.ts);
 * the client reads failed answers with it (src/client/lib/api.ts).
 */
export const problemSchema = z.object({
  type: z.string(),
  title: z.string(),
  status: z.number().int(),
  detail: z.string().optional(),
  errors: z.array(fieldErrorSchema).optional(),
  /** A stable machine-readable reason, where one helps the client (better-auth's error codes). */
  code: z.string().optional(),
  /** The request's id (its X-Request-Id), by which the shop's logs find it. */
  requestId: z.string().optional(),
});
export type Problem = z.infer<typeof problemSchema>;
