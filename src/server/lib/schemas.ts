import { z } from "zod";

export const problemSchema = z.object({
  type: z.string(),
  title: z.string(),
  status: z.number().int(),
  detail: z.string().optional(),
  errors: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
});

/** Declares problem+json answers for the given statuses in a route's response schema. */
export function problemResponses<const S extends number>(...statuses: S[]): Record<S, typeof problemSchema> {
  return Object.fromEntries(statuses.map((s) => [s, problemSchema])) as Record<S, typeof problemSchema>;
}
