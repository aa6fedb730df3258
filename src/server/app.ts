import swagger from "@fastify/swagger";
import swaggerUi from "@fastify/swagger-ui";
import Fastify, { type FastifyInstance, type FastifyReply } from "fastify";
import {
  jsonSchemaTransform,
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from "fastify-type-provider-zod";
import { creditNoteNumber } from "../shared/credit-notes.js";
import { invoiceNumber } from "../shared/invoices.js";
import type { Config } from "./config.js";
import type { Database, Db } from "./db/client.js";
import { createAuth, readSessionUser } from "./features/accounts/auth.js";
import { shareAuthContexts } from "./features/accounts/auth-context.js";
import { type AuthRoutesOptions, authProblems, authRoutes } from "./features/accounts/auth-routes.js";
import { accountDeletionRoutes } from "./features/accounts/delete-account-routes.js";
import { emailChangeRoutes } from "./features/accounts/email-change-routes.js";
import { accountRoutes } from "./features/accounts/routes.js";
import { hasSecondFactor } from "./features/accounts/second-factor.js";
import { activityRoutes } from "./features/activity/index.js";
import { adminRoutes } from "./features/admin/routes.js";
import catalogCache from "./features/catalog/cache-plugin.js";
import { catalogCsvRoutes } from "./features/catalog/csv-routes.js";
import { type CatalogRoutesOptions, catalogRoutes, productsPagePreload } from "./features/catalog/routes.js";
import { discountRoutes } from "./features/discounts/routes.js";
import { healthRoutes } from "./features/health/routes.js";
import { creditNotePdf, invoicePdf, invoiceRenderer } from "./features/invoices/index.js";
import { invoiceRoutes } from "./features/invoices/routes.js";
import { mailOutboxPlugin } from "./features/mail/index.js";
import {
  mailPreferenceRoutes,
  oneClickUnsubscribeUrl,
  unsubscribePageUrl,
} from "./features/mail-preferences/index.js";
import { myDataRoutes } from "./features/my-data/routes.js";
import { orderExpiryJob } from "./features/orders/expiry.js";
import { orderRoutes } from "./features/orders/routes.js";
import { createPaymentProvider, intentReleaser } from "./features/payments/index.js";
import { paymentRoutes } from "./features/payments/routes.js";
import { testModeBanner } from "./features/payments/test-mode.js";
import { profileRoutes } from "./features/profile/routes.js";
import { retentionPlugin } from "./features/retention/index.js";
import { reviewRoutes } from "./features/reviews/routes.js";
import { stockRoutes, stockSettings } from "./features/stock/index.js";
import { stockNoticePlugin, unsubscribeUrl } from "./features/stock-notices/index.js";
import { stockNoticeRoutes } from "./features/stock-notices/routes.js";
import { uploadBodyProblems, uploadRoutes } from "./features/uploads/routes.js";
import uploadWorkers from "./features/uploads/workers.js";
import { userRoutes } from "./features/users/routes.js";
import { AccessLog, REQUEST_ID_HEADER } from "./lib/access-log.js";
import { createMailer, type Mailer } from "./lib/mailer.js";
import { requestIdOf } from "./lib/request-id.js";
import { nameRequest, tagRequest } from "./lib/tracing.js";
import { type ProxyTrust, proxyTrust } from "./lib/trusted-proxy.js";
import { type EarlyAnswer, earlyAnsweringServer, type ServerState } from "./plugins/early-answers.js";
import errors from "./plugins/errors.js";
import input from "./plugins/input.js";
import metrics from "./plugins/metrics.js";
import replicas from "./plugins/replicas.js";
import security, { frameworkErrors } from "./plugins/security.js";
import session from "./plugins/session.js";
import spa from "./plugins/spa.js";

declare module "fastify" {
  interface FastifyInstance {
    config: Config;
    db: Db;
    database: Database;
    /** Registers an answer given on node:http before Fastify routes a request (plugins/early-answers.ts). */
    answerEarly(answer: EarlyAnswer): void;
    /**
     * The instance is about to stop (main.ts, on SIGTERM): /readyz answers 503 so a load balancer
     * takes it out, while every other request is still answered until it closes.
     */
    draining: { since: Date | undefined };
    /**
     * Starts the stop (main.ts): /readyz answers 503 from now on, and every answer, those being
     * prepared included, says `Connection: close` and closes its connection, so the server closes
     * as soon as its last request is answered.
     */
    drain(): void;
    /** The requests being answered now, for the log of a stop whose forced limit cut them off (main.ts). */
    requestsInFlight(): RequestInFlight[];
    /** The proxies the shop believes (TRUST_PROXY), as a check of an address; none when unset. */
    trustedProxy: ProxyTrust | undefined;
  }
}

/** A request not answered yet, as the log names it: its id, method and route (never its URL). */
interface RequestInFlight {
  reqId: string;
  method: string;
  route: string | null;
}

export interface BuildOptions {
  /** Pino options, or false for a silent logger (tests). */
  logger?: boolean | Record<string, unknown>;
  /** Where mail goes; by default SMTP_URL or the dev outbox. */
  mailer?: Mailer;
  rateLimit?: AuthRoutesOptions["rateLimit"];
  /** The catalog search's rationing, when not sized from the pool (tests provoke its 503s with it). */
  catalogSearch?: CatalogRoutesOptions["search"];
  /** Told of every route as it is registered (the authorization matrix test lists them this way). */
  onRoute?: (route: { method: string | string[]; url: string }) => void;
}

/**
 * The whole HTTP application as a Fastify plugin tree: external plugins, then the app's own
 * plugins, then the features. It owns no process concerns (listening, signals, the database server).
 */
export async function buildApp(
  config: Config,
  database: Database,
  options: BuildOptions = {},
): Promise<FastifyInstance> {
  const early: EarlyAnswer[] = [];
  const state: ServerState = { draining: false, closing: false };
  const trust = proxyTrust(config.trustProxy);
  const app = Fastify({
    serverFactory: earlyAnsweringServer(early, state),
    genReqId: (req) => requestIdOf(req, trust),
    logger: options.logger ?? { level: config.logLevel },
    trustProxy: trust ?? false,
    bodyLimit: 1024 * 1024,
    return503OnClosing: true,
    forceCloseConnections: "idle",
    requestTimeout: 30_000,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 200 },
    frameworkErrors: frameworkErrors(config),
    logController: new AccessLog(),
  }).withTypeProvider<ZodTypeProvider>();

  // The requests Fastify is answering (an early answer is given at once): a stop waits for them,
  // and names those its forced limit cuts off. A response's "close" comes once it is sent, or its
  // connection is gone. Once the app closes, each connection an answer leaves idle is closed at
  // once (the drain's `Connection: close` cannot reach an answer already under way when it began).
  const inFlight = new Set<FastifyReply>();
  const answered = (reply: FastifyReply) => {
    inFlight.delete(reply);
    if (state.closing) setImmediate(() => app.server.closeIdleConnections());
  };
  // Every answer Fastify gives carries its request's id (the early answers add it themselves,
  // under the same header, lib/access-log.ts).
  app.addHook("onRequest", async (request, reply) => {
    reply.header(REQUEST_ID_HEADER, request.id);
    // The request's span (lib/tracing.ts) takes its id and route; nothing when traces are off.
    tagRequest(request.id);
    nameRequest(request.method, request.routeOptions.url);
    inFlight.add(reply);
    reply.raw.once("close", () => answered(reply));
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.decorate("config", config);
  app.decorate("database", database);
  app.decorate("draining", { since: undefined as Date | undefined });
  app.decorate("trustedProxy", trust);
  app.decorate("drain", () => {
    app.draining.since ??= new Date();
    state.draining = true;
    // The answers already being prepared: those whose headers are not sent yet close too.
    for (const reply of inFlight) if (!reply.raw.headersSent) reply.raw.shouldKeepAlive = false;
  });
  app.decorate("requestsInFlight", () =>
    [...inFlight].map(({ request }) => ({
      reqId: request.id,
      method: request.method,
      route: request.routeOptions.url ?? null,
    })),
  );
  // With EARLY_ANSWERS=false none is registered: the routes' onRequest hooks give the same answers
  // through Fastify (what `npm run bench` compares the early path with).
  app.decorate("answerEarly", (answer: EarlyAnswer) => {
    if (config.earlyAnswers) early.push(answer);
  });
  app.addHook("preClose", async () => {
    state.closing = true;
  });
  app.decorate("db", database.db);
  if (options.onRoute) app.addHook("onRoute", options.onRoute);

  // External plugins.
  await app.register(swagger, {
    openapi: {
      info: {
        title: "Gearhouse API",
        description: "The shop's HTTP API. Errors are application/problem+json (RFC 9457).",
        version: "1.0.0",
      },
    },
    transform: jsonSchemaTransform,
  });
  await app.register(swaggerUi, { routePrefix: "/api/docs" });

  // better-auth, on the shop's tables: the accounts feature serves its endpoints, the session
  // plugin reads who is signed in through it.
  const mailer = options.mailer ?? createMailer(config, (msg) => app.log.info(msg));
  // Its three AsyncLocalStorages as slots of one, before its first call (accounts/auth-context.ts).
  if (!(await shareAuthContexts()))
    app.log.warn("better-auth keeps its own AsyncLocalStorages: each one costs every request an async hook");
  const auth = createAuth(config, database.db, mailer, app.log);
  app.decorate("auth", auth);

  // The app's own plugins.
  // The features' words for the errors of the libraries they call (lib/problem.ts, ProblemTable).
  await app.register(errors, { tables: [authProblems, uploadBodyProblems] });
  await app.register(security, { config });
  await app.register(input);
  await app.register(session, {
    readSession: (cookie) => readSessionUser(auth, cookie, database.db),
    adminSecondFactor: config.adminSecondFactor,
    hasSecondFactor: (user) => hasSecondFactor(database.db, user),
  });
  await app.register(catalogCache);
  await app.register(metrics);
  // Read replicas, when DATABASE_REPLICA_URL names any: app.reads says where a read may go.
  await app.register(replicas);

  // Features.
  await app.register(healthRoutes);
  await app.register(authRoutes, { auth, mailer, rateLimit: options.rateLimit });
  await app.register(accountRoutes);
  await app.register(emailChangeRoutes, { mailer, rateLimit: options.rateLimit });
  await app.register(profileRoutes);
  await app.register(myDataRoutes);
  await app.register(mailPreferenceRoutes);
  await app.register(catalogRoutes, { search: options.catalogSearch });
  await app.register(catalogCsvRoutes);
  await app.register(reviewRoutes);
  await app.register(stockNoticeRoutes);
  // One payment provider: payments take and refund money through it, and orders that are removed
  // or expire have their intents cancelled through it (the orders feature never imports payments).
  const provider = createPaymentProvider(config, database.db);
  const releaseIntents = intentReleaser(database.db, provider, app.log);
  await app.register(orderRoutes, { releaseIntents });
  await app.register(paymentRoutes, { provider });
  // A customer deletes their own account: its unpaid orders' intents are released as Remove's are.
  await app.register(accountDeletionRoutes, { mailer, releaseIntents });
  // Invoices render in a worker thread and are kept (features/invoices/renderer.ts), for the
  // download and the receipt mail alike.
  const invoices = invoiceRenderer();
  app.addHook("onClose", async () => invoices.close());
  await app.register(invoiceRoutes, { renderer: invoices });
  await app.register(userRoutes);
  await app.register(adminRoutes);
  await app.register(activityRoutes);
  await app.register(discountRoutes);
  // The stock ledger's admin routes; the shop's low-stock default written for the triggers.
  await app.register(stockSettings);
  await app.register(stockRoutes);
  // Background jobs and workers: each has one plugin here, which adds its gauges, starts it when
  // the app is ready and stops it when the app closes (runInBackground, lib/periodic.ts); no
  // routes plugin starts one. Every instance runs them: their statements skip each other's rows.
  // The upload workers: the image encoder and the upload spool, which the upload routes use, and
  // the sweep of unused images (features/uploads/workers.ts).
  await app.register(uploadWorkers);
  await app.register(uploadRoutes);
  // Unpaid orders whose hold ran out are expired, their units back in stock, their intents released.
  await app.register(orderExpiryJob, { releaseIntents });
  // The receipt mail attaches the paid order's invoice, as My Orders downloads it.
  await app.register(mailOutboxPlugin, {
    mailer,
    unsubscribeUrl: (noticeId) => unsubscribeUrl(config.publicUrl, config.authSecret, noticeId),
    // The optional mails' one-click unsubscribe (List-Unsubscribe) and footer link.
    reminderLinks: (userId) => ({
      oneClick: oneClickUnsubscribeUrl(config.publicUrl, config.authSecret, userId),
      page: unsubscribePageUrl(config.publicUrl, config.authSecret, userId),
    }),
    invoiceFor: async (orderId) => {
      const invoice = await invoicePdf(database.db, orderId, config.seller, invoices.render);
      return invoice && { ...invoice, number: invoiceNumber(invoice.number) };
    },
    // The refund mail attaches the refunded order's credit note, as My Orders downloads it.
    creditNoteFor: async (orderId) => {
      const note = await creditNotePdf(database.db, orderId, config.seller, invoices.renderCreditNote);
      return note && { ...note, number: creditNoteNumber(note.number) };
    },
  });
  // Removes rows that outlived their use: idempotency keys, old outbox rows, cancelled intents.
  await app.register(retentionPlugin);
  // Queues the back-in-stock mails of products that are back, and ends old subscriptions.
  await app.register(stockNoticePlugin);

  await app.register(spa, {
    staticDir: config.staticDir,
    preloads: { "/tools": () => productsPagePreload(app) },
    bodyStart: config.payments === "sandbox" ? testModeBanner() : undefined,
  });
  return app;
}
