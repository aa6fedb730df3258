import { problemSchema } from "../../shared/problem.js";

/** Declares problem+json answers for the given statuses in a route's response schema. */
export function problemResponses<const S extends number>(...statuses: S[]): Record<S, typeof problemSchema> {
  return Object.fromEntries(statuses.map((s) => [s, problemSchema])) as Record<S, typeof problemSchema>;
}
