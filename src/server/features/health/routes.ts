import { sql } from "drizzle-orm";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";

const READY_TIMEOUT_MS = 1_500;

/**
 * Liveness (the process answers) and readiness (the database answers, quickly, and the instance
 * is not about to stop: see FastifyInstance.draining).
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
          200: z.object({ status: z.literal("ready") }),
          503: z.object({ status: z.literal("unavailable"), detail: z.string() }),
        },
      },
    },
    async (_request, reply) => {
      if (app.draining.since)
        return reply.code(503).send({ status: "unavailable" as const, detail: "shutting down" });
      let timer: NodeJS.Timeout | undefined;
      try {
        await Promise.race([
          app.db.execute(sql`select 1`),
          new Promise((_, reject) => {
            timer = setTimeout(() => reject(new Error("database check timed out")), READY_TIMEOUT_MS);
          }),
        ]);
        return { status: "ready" as const };
      } catch (error) {
        return reply.code(503).send({ status: "unavailable" as const, detail: (error as Error).message });
      } finally {
        clearTimeout(timer);
      }
    },
  );
};
