import type {
  FastifyInstance,
  FastifyPluginOptions,
  FastifyReply,
  FastifyRequest,
  FastifySchema,
} from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import type { z } from "zod";
import type { problemSchema } from "../../shared/problem.js";
import type { Db } from "../db/client.js";
import { problemResponses } from "./schemas.js";

/** The statuses a route answers with a problem (src/shared/problem.ts). */
type ProblemStatus = 400 | 401 | 402 | 403 | 404 | 409 | 410 | 413 | 415 | 422 | 429 | 502 | 503;

/**
 * The problems a route may answer, as its reply type sees them: any of them, since plugins/errors.ts
 * sends every problem in the one shape whichever status it has.
 */
type ProblemAnswers = Record<ProblemStatus, typeof problemSchema>;

/**
 * An onRequest hook: it runs before the body is read, throws to refuse, or answers in the route's
 * stead; async, so Fastify waits for its promise.
 */
type Hook = (request: FastifyRequest, reply: FastifyReply) => Promise<unknown>;

interface RouteSpec extends FastifySchema {
  summary: string;
  /** The route's answers other than problems. */
  response: Record<number, unknown>;
  /** The problems the handler answers; its input's 400 and its access's 401 and 403 are added. */
  problems?: readonly ProblemStatus[];
  /** onRequest hooks of its own, run after the access check (which makes `request.user`). */
  hooks?: readonly Hook[];
}

/** Route options as Fastify takes them, the schema typed so that the request and reply types follow. */
interface RouteOptions<S extends RouteSpec> {
  onRequest?: Hook[];
  schema: Omit<S, "problems" | "hooks" | "response"> & {
    tags: readonly string[];
    response: S["response"] & ProblemAnswers;
  };
}

/** The parts of a request a route's schema validates: any of them makes a bad request a 400. */
const INPUTS = ["params", "querystring", "body", "headers"] as const;

/**
 * The options of a feature's routes, by who may call them: the guards of plugins/session.ts and the
 * problems they answer (401 signed out; 403 not an admin or, for `stepUp`, no recent second factor),
 * 400 for a route that takes input, and the feature's OpenAPI tags. So a route states what is its
 * own (`app.get(path, route.admin({ summary, querystring, response }), handler)`), and no route can
 * guard itself without declaring the answers of its guard.
 */
export function routeOptions(app: FastifyInstance, tags: readonly string[]) {
  const of =
    (guards: Hook[], refusals: ProblemStatus[]) =>
    <S extends RouteSpec>({ problems = [], hooks = [], response, ...schema }: S): RouteOptions<S> => {
      const onRequest = [...guards, ...hooks];
      const input: ProblemStatus[] = INPUTS.some((part) => schema[part] !== undefined) ? [400] : [];
      const answers = { ...response, ...problemResponses(...input, ...refusals, ...problems) };
      return {
        ...(onRequest.length > 0 ? { onRequest } : {}),
        // The type follows the spec given; the answers add problems only, which ProblemAnswers names.
        schema: { tags, ...schema, response: answers as S["response"] & ProblemAnswers },
      };
    };
  const admin = of([app.requireAdmin], [401, 403]);
  return {
    anyone: of([], []),
    user: of([app.requireUser], [401]),
    admin,
    /** An admin who proved a second factor within the last minutes: for what cannot be undone. */
    stepUp: of([app.requireAdmin, app.requireStepUp], [401, 403]),
    /**
     * Registers an admin's paged list at `url`: `list` reads the page its query asks for, from a
     * replica unless this admin wrote just now (plugins/replicas.ts).
     */
    adminList<Query, Page>(
      url: string,
      querystring: z.ZodType<Query>,
      page: z.ZodType<Page>,
      list: (db: Db, query: Query) => Promise<Page>,
      docs: { summary: string; description?: string },
    ) {
      app.get(url, admin({ ...docs, querystring, response: { 200: page } }), (request) =>
        // The route's schema has parsed the query into a Query (fastify-type-provider-zod's
        // validator); Fastify's request types cannot follow a schema this generic.
        list(app.reads.of(request).db, request.query as Query),
      );
    },
  };
}

/** The app as a feature's routes plugin gets it: the zod type provider's. */
type ZodApp = Parameters<FastifyPluginAsyncZod>[0];

/**
 * A feature's routes as a Fastify plugin, its OpenAPI `tags` named once: `declare` gets the app,
 * the options of routes under those tags (routeOptions) and the plugin's options.
 */
export function featureRoutes<Options extends FastifyPluginOptions = Record<never, never>>(
  tags: readonly string[],
  declare: (app: ZodApp, route: ReturnType<typeof routeOptions>, options: Options) => Promise<void>,
): FastifyPluginAsyncZod<Options> {
  return (app, options) => declare(app, routeOptions(app, tags), options);
}

/**
 * A handler whose answer is the asker's own (their session, factors, sessions): sent with
 * `private, no-store`, so that no cache, shared or the browser's, keeps it.
 */
export function personal<T>(answer: (request: FastifyRequest) => Promise<T>) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    reply.header("cache-control", "private, no-store");
    return answer(request);
  };
}
