import { sql } from "drizzle-orm";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { LEFT_OUT_REASONS } from "../../db/replicas.js";
import { withTimeout } from "../../lib/timeout.js";

const READY_TIMEOUT_MS = 1_500;

/** Each read replica's state, with replicas on: they never make the instance unready (the primary does). */
const replicasSchema = z
  .array(
    z.object({
      name: z.string(),
      inUse: z.boolean(),
      lagSeconds: z.number().nullable(),
      reason: z.enum(LEFT_OUT_REASONS).optional(),
    }),
  )
  .optional();

/**
 * Liveness (the process answers) and readiness (the database answers, quickly, and the instance
 * is not about to stop: see FastifyInstance.draining). Readiness also lists the read replicas, if
 * any, and which take reads: a replica left out sends its reads to the primary, so the instance
 * stays ready.
 */
export const healthRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    "/healthz",
    { schema: { hide: true, response: { 200: z.object({ status: z.literal("ok") }) } } },
    async () => ({ status: "ok" as const }),
  );

  app.get(
    "/readyz",
    {
      schema: {
        hide: true,
        response: {
          200: z.object({ status: z.literal("ready"), replicas: replicasSchema }),
          503: z.object({ status: z.literal("unavailable"), detail: z.string() }),
        },
      },
    },
    async (_request, reply) => {
      if (app.draining.since)
        return reply.code(503).send({ status: "unavailable" as const, detail: "shutting down" });
      try {
        await withTimeout(app.db.execute(sql`select 1`), READY_TIMEOUT_MS, "database check timed out");
        const replicas = app.reads.states();
        return { status: "ready" as const, ...(replicas.length > 0 ? { replicas } : {}) };
      } catch (error) {
        return reply.code(503).send({ status: "unavailable" as const, detail: (error as Error).message });
      }
    },
  );
};
