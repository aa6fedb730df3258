import { randomBytes } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { z } from "zod";
import { LOW_STOCK_THRESHOLD, PRODUCT_QUANTITY_MAX } from "../shared/constants.js";
import { startupMessages } from "../shared/messages/startup.js";
import { isAddressOrNetwork, type TrustProxy } from "./lib/trusted-proxy.js";

const optionalString = z
  .string()
  .trim()
  .transform((v) => (v === "" ? undefined : v))
  .optional();

const optionalUrl = (protocols: RegExp) => optionalString.pipe(z.url({ protocol: protocols }).optional());

/**
 * TRUST_PROXY: off (unset, `false`, `0`), a hop count (`1`), or the balancer's addresses and
 * networks (`10.0.0.5,10.0.1.0/24`). `true`, which trusted every hop and so whatever a client wrote
 * in X-Forwarded-For, is refused with what to write instead.
 */
const trustProxySetting = z
  .string()
  .trim()
  .optional()
  .transform((v, ctx): TrustProxy | undefined => {
    if (v === undefined || v === "" || v === "false" || v === "0") return undefined;
    if (v === "true") {
      ctx.addIssue({ code: "custom", message: startupMessages.trustProxyAny });
      return z.NEVER;
    }
    if (/^\d+$/.test(v)) {
      const hops = Number(v);
      if (hops <= 10) return { hops };
      ctx.addIssue({ code: "custom", message: startupMessages.trustProxyHops });
      return z.NEVER;
    }
    const addresses = v.split(",").map((a) => a.trim());
    // 0.0.0.0/0 or ::/0 is "any" written as a network.
    if (addresses.some((a) => a.endsWith("/0"))) {
      ctx.addIssue({ code: "custom", message: startupMessages.trustProxyAny });
      return z.NEVER;
    }
    const bad = addresses.filter((a) => !isAddressOrNetwork(a));
    if (bad.length === 0) return { addresses };
    ctx.addIssue({ code: "custom", message: startupMessages.trustProxyNotAddress(bad) });
    return z.NEVER;
  });

const hasStripeKeys = (env: PaymentsEnv) =>
  Boolean(env.STRIPE_SECRET_KEY?.trim() && env.STRIPE_PUBLISHABLE_KEY?.trim());

type PaymentsEnv = { PAYMENTS?: string; STRIPE_SECRET_KEY?: string; STRIPE_PUBLISHABLE_KEY?: string };

/**
 * Which provider takes payments: the one PAYMENTS names, otherwise Stripe when both its keys are
 * set, otherwise the sandbox (which production refuses unless PAYMENTS names it; see envSchema).
 * Also read by vite.config.ts, whose dev server shows the test-mode banner as the shop does.
 */
export function paymentsMode(env: PaymentsEnv): "stripe" | "sandbox" {
  const named = env.PAYMENTS?.trim();
  if (named === "stripe" || named === "sandbox") return named;
  return hasStripeKeys(env) ? "stripe" : "sandbox";
}

/** The environment, parsed once at start (README.md, Configuration). */
const envSchema = z
  .object({
    NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
    PORT: z.coerce.number().int().min(0).max(65535).default(3000),
    /** Unset: 127.0.0.1 while demo accounts exist, otherwise 0.0.0.0 (see `listenHost`). */
    HOST: optionalString,
    DATA_DIR: z.string().min(1).default("./data"),
    DATABASE_URL: optionalUrl(/^postgres(ql)?$/),
    /** With DATABASE_URL a transaction pooler's (PgBouncer): the database's own, for LISTEN and locks. */
    DATABASE_DIRECT_URL: optionalUrl(/^postgres(ql)?$/),
    /**
     * Read replicas, comma-separated: the catalog's reads, admin lists and exports go to one whose
     * lag is within REPLICA_MAX_LAG_SECONDS (db/replicas.ts, docs/scaling.md). Off when unset.
     */
    DATABASE_REPLICA_URL: z
      .string()
      .default("")
      .transform((v) =>
        v
          .split(",")
          .map((u) => u.trim())
          .filter(Boolean),
      )
      .pipe(z.array(z.url({ protocol: /^postgres(ql)?$/ }))),
    // Past this lag a replica is left out until it is back within it; its reads go to the primary.
    REPLICA_MAX_LAG_SECONDS: z.coerce.number().min(0.5).max(3_600).default(5),
    EMBEDDED_PG_PORT: z.coerce.number().int().min(1024).max(65535).default(54329),
    PUBLIC_URL: optionalUrl(/^https?$/),
    AUTH_SECRET: optionalString.pipe(z.string().min(32).optional()),
    SMTP_URL: optionalUrl(/^smtps?$/),
    MAIL_FROM: z.string().default("Gearhouse <no-reply@gearhouse.local>"),
    // 0: this instance sends no order mails (another does, or the tests send them when they ask).
    MAIL_OUTBOX_INTERVAL_SECONDS: z.coerce.number().min(0).max(3_600).default(5),
    MAIL_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(100).default(12),
    // Mails of every kind one address receives an hour (lib/mail-cap.ts); a paid order's receipt always goes.
    MAIL_LIMIT_PER_RECIPIENT_PER_HOUR: z.coerce.number().int().min(1).max(100_000).default(10),
    // Outbox rows sent or given up are removed this long after (features/retention).
    MAIL_OUTBOX_RETENTION_DAYS: z.coerce.number().min(1).max(3_650).default(30),
    // Cancelled sandbox payment intents are removed this long after they were made.
    CANCELLED_INTENT_RETENTION_DAYS: z.coerce.number().min(1).max(3_650).default(7),
    // How often the back-in-stock job queues the mails of products that are back (0: never, on this instance).
    STOCK_NOTICE_INTERVAL_SECONDS: z.coerce.number().int().min(0).max(86_400).default(60),
    // How often the retention job removes what has outlived its use (0: never, on this instance).
    RETENTION_INTERVAL_SECONDS: z.coerce.number().int().min(0).max(86_400).default(600),
    // The payment reminder goes this long before an unpaid order's hold ends; 0 sends none.
    ORDER_REMINDER_MINUTES: z.coerce
      .number()
      .min(0)
      .max(60 * 24 * 365)
      .default(120),
    /** Who issues the invoices (features/invoices): printed on each as the seller. */
    SELLER_NAME: optionalString,
    SELLER_ADDRESS: optionalString,
    /** Unset: MAIL_FROM's address. */
    SELLER_EMAIL: optionalString.pipe(z.email().optional()),
    SELLER_TAX_ID: optionalString,
    GOOGLE_CLIENT_ID: optionalString,
    GOOGLE_CLIENT_SECRET: optionalString,
    GOOGLE_ISSUER: optionalUrl(/^https?$/),
    STRIPE_SECRET_KEY: optionalString,
    STRIPE_PUBLISHABLE_KEY: optionalString,
    STRIPE_WEBHOOK_SECRET: optionalString,
    STRIPE_API_URL: optionalUrl(/^https?$/),
    /** Unset: Stripe when its keys are set; otherwise the sandbox, which production refuses (see `paymentsMode`). */
    PAYMENTS: z
      .enum(["stripe", "sandbox", ""])
      .optional()
      .transform((v) => v || undefined),
    /** Unset: required in production, optional elsewhere (see `adminSecondFactor`). */
    ADMIN_SECOND_FACTOR: z.enum(["required", "optional"]).optional(),
    ADMIN_EMAILS: z
      .string()
      .default("")
      .transform((v) =>
        v
          .split(",")
          .map((e) => e.trim().toLowerCase())
          .filter(Boolean),
      )
      .pipe(z.array(z.email())),
    TRUST_PROXY: trustProxySetting,
    AUTH_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).max(100_000).default(10),
    AUTH_MAIL_LIMIT_PER_HOUR: z.coerce.number().int().min(1).max(100_000).default(3),
    // A day by default: long enough to reach the new inbox, at most a week.
    EMAIL_CHANGE_LINK_HOURS: z.coerce.number().int().min(1).max(168).default(24),
    REVIEW_LIMIT_PER_HOUR: z.coerce.number().int().min(1).max(100_000).default(5),
    INVOICE_DOWNLOADS_PER_HOUR: z.coerce.number().int().min(1).max(100_000).default(60),
    DATA_DOWNLOADS_PER_HOUR: z.coerce.number().int().min(1).max(100_000).default(3),
    UPLOAD_LIMIT_PER_DAY: z.coerce.number().int().min(1).max(1_000_000).default(20),
    // At least one upload of the largest size (MAX_UPLOAD_BYTES, 5 MB).
    UPLOAD_MB_PER_DAY: z.coerce.number().int().min(5).max(1_000_000).default(50),
    ADMIN_UPLOAD_LIMIT_PER_DAY: z.coerce.number().int().min(1).max(1_000_000).default(200),
    ADMIN_UPLOAD_MB_PER_DAY: z.coerce.number().int().min(5).max(1_000_000).default(500),
    UPLOAD_CONCURRENCY_PER_ACCOUNT: z.coerce.number().int().min(1).max(1_000).default(2),
    // At least one upload of the largest size with its multipart framing (MAX_UPLOAD_BYTES + 64 kB).
    UPLOAD_SPOOL_MB: z.coerce.number().int().min(6).max(1_000_000).default(200),
    IMAGE_SWEEP_INTERVAL_SECONDS: z.coerce.number().int().min(1).max(86_400).default(600),
    // Below this stock a product without a threshold of its own is low (features/stock).
    LOW_STOCK_THRESHOLD: z.coerce
      .number()
      .int()
      .min(0)
      .max(PRODUCT_QUANTITY_MAX)
      .default(LOW_STOCK_THRESHOLD),
    // Fractional hours allowed (0.01 is 36 seconds), so tests and demos can use short holds.
    ORDER_HOLD_HOURS: z.coerce
      .number()
      .min(1 / 3600)
      .max(24 * 365)
      .default(24),
    ORDER_EXPIRY_INTERVAL_SECONDS: z.coerce.number().min(0.05).max(86_400).default(60),
    ORDER_MAX_UNPAID: z.coerce.number().int().min(1).max(1_000_000).default(5),
    ORDER_MAX_UNPAID_UNITS: z.coerce.number().int().min(10).max(1_000_000_000).default(1000),
    // One customer's unpaid units of one product, and one address's units of it booked within a
    // hold's time: at most this share of the stock (never fewer than the minimum order). 100 lifts it.
    ORDER_MAX_SHARE_PERCENT: z.coerce.number().int().min(1).max(100).default(50),
    BOOKING_LIMIT_PER_HOUR: z.coerce.number().int().min(1).max(1_000_000_000).default(20),
    // 0 counts nothing per address (a load test from one machine).
    BOOKING_LIMIT_PER_ADDRESS_PER_HOUR: z.coerce.number().int().min(0).max(1_000_000_000).default(60),
    // On SIGTERM: /readyz answers 503 for this long before the server closes (a balancer's health
    // checks notice within it); 0 closes at once.
    SHUTDOWN_GRACE_SECONDS: z.coerce.number().min(0).max(300).default(0),
    // Metrics (docs/operations.md): on a port of their own, and/or on /metrics behind a bearer token.
    METRICS_PORT: optionalString.pipe(
      z.coerce.number<string | undefined>().int().min(1).max(65_535).optional(),
    ),
    // Where the metrics port listens: loopback unless told (a private interface Prometheus reaches),
    // never every interface by default, since it has no token (issue 28, item 11).
    METRICS_HOST: optionalString.transform((v) => v ?? "127.0.0.1"),
    METRICS_TOKEN: optionalString.pipe(z.string().min(16).optional()),
    SEED_DEMO: z.enum(["true", "false", ""]).optional(),
    LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
    // "false" serves the catalog's cached answers through Fastify instead of on node:http before it
    // (plugins/early-answers.ts): the same answers, for `npm run bench` to compare the two paths.
    EARLY_ANSWERS: z.enum(["true", "false", ""]).optional(),
    STATIC_DIR: optionalString,
  })
  .superRefine((env, ctx) => {
    if (env.NODE_ENV !== "production") return;
    if (!env.AUTH_SECRET) {
      ctx.addIssue({ code: "custom", path: ["AUTH_SECRET"], message: "is required in production" });
    }
    if (!env.PUBLIC_URL) {
      ctx.addIssue({ code: "custom", path: ["PUBLIC_URL"], message: "is required in production" });
    }
  })
  .superRefine((env, ctx) => {
    const stripeKeys = hasStripeKeys(env);
    if (env.PAYMENTS === "stripe" && !stripeKeys) {
      ctx.addIssue({ code: "custom", path: ["PAYMENTS"], message: startupMessages.stripeKeysMissing });
    }
    if (env.NODE_ENV === "production" && !env.PAYMENTS && !stripeKeys) {
      ctx.addIssue({ code: "custom", path: ["PAYMENTS"], message: startupMessages.sandboxInProduction });
    }
  });

export interface Config {
  env: "development" | "production" | "test";
  port: number;
  /** Where the server listens: HOST, or the default `listenHost` picks. */
  host: string;
  /** Set when the host is loopback only because of the demo accounts: the line to print at start. */
  hostNotice: string | undefined;
  dataDir: string;
  databaseUrl: string | undefined;
  /** The database's own address when databaseUrl is a transaction pooler's (docs/scaling.md). */
  databaseDirectUrl: string | undefined;
  /**
   * Read replicas (DATABASE_REPLICA_URL; none: every read goes to the primary) and the lag past
   * which one is left out (REPLICA_MAX_LAG_SECONDS): db/replicas.ts, docs/scaling.md.
   */
  replicas: { urls: string[]; maxLagSeconds: number };
  embeddedPgPort: number;
  publicUrl: string;
  secureCookies: boolean;
  authSecret: string;
  smtpUrl: string | undefined;
  mailFrom: string;
  /** The order mails' outbox (features/mail/outbox.ts). */
  mail: {
    /** How often this instance sends the mails due (MAIL_OUTBOX_INTERVAL_SECONDS); 0 for never. */
    outboxIntervalSeconds: number;
    /** Tries of one mail before it is given up, with backoff between them. */
    maxAttempts: number;
    /** How long before an unpaid order's hold ends its reminder goes; 0 for no reminders. */
    reminderSeconds: number;
    /** Mails of every kind (order and account mails) one address may receive an hour (lib/mail-cap.ts). */
    perRecipientPerHour: number;
  };
  /** How often the back-in-stock job runs (features/stock-notices); 0 for never. */
  stockNoticeIntervalSeconds: number;
  /** What the retention job removes, and how often it runs (features/retention). */
  retention: {
    /** Seconds between passes; 0 for none on this instance. */
    intervalSeconds: number;
    /** Outbox rows sent or given up this many days ago. */
    outboxDays: number;
    /** Cancelled sandbox payment intents made this many days ago. */
    cancelledIntentDays: number;
    /**
     * Rate-limit counters whose window started this long ago: the longest window any counter has
     * (a day, or the hold's time that book_order counts an address's units of a product over).
     */
    rateLimitSeconds: number;
  };
  /** The seller printed on every invoice (features/invoices): SELLER_NAME, _ADDRESS, _EMAIL, _TAX_ID. */
  seller: Seller;
  google: { clientId: string; clientSecret: string; issuer: string } | undefined;
  stripe:
    | {
        secretKey: string;
        publishableKey: string;
        webhookSecret: string | undefined;
        apiUrl: string | undefined;
      }
    | undefined;
  /**
   * Which provider takes payments: "sandbox" takes only test cards, and every page then says so
   * (plugins/spa.ts). Production never falls back to it: only PAYMENTS=sandbox chooses it there.
   */
  payments: "stripe" | "sandbox";
  adminEmails: string[];
  /**
   * Whether an admin must have and use a second factor (ADMIN_SECOND_FACTOR): `required` (the
   * default in production) refuses every admin route to a session that did not prove one;
   * `optional` (elsewhere) lets an admin without one in, though one who has one still steps up.
   */
  adminSecondFactor: "required" | "optional";
  /** The proxies whose X-Forwarded-For and X-Request-Id the shop believes (TRUST_PROXY); none when unset. */
  trustProxy: TrustProxy | undefined;
  /** Sign-in, sign-up and reset attempts allowed per client address and minute; password changes per address and per account. */
  authRateLimitPerMinute: number;
  /** Reset mails, and account-exists mails, sent per recipient address and hour (each kind). */
  authMailLimitPerHour: number;
  /** How long the link mailed to a new address stays valid (EMAIL_CHANGE_LINK_HOURS, features/accounts/email-change.ts). */
  emailChangeLinkHours: number;
  /** Reviews one account may post an hour, staff included. */
  reviewLimitPerHour: number;
  /** Invoice downloads one account may make an hour, admins included (INVOICE_DOWNLOADS_PER_HOUR). */
  invoiceDownloadsPerHour: number;
  /** Downloads of "my data" one account may make an hour (DATA_DOWNLOADS_PER_HOUR; features/my-data). */
  dataDownloadsPerHour: number;
  /** Uploads one account may make a day, and their bytes as received: customers, and admins (who add products). */
  uploadQuota: { user: UploadQuota; admin: UploadQuota };
  /** Uploads one account may have under way at once on an instance (UPLOAD_CONCURRENCY_PER_ACCOUNT). */
  uploadConcurrencyPerAccount: number;
  /** The low-stock threshold of every product without its own (LOW_STOCK_THRESHOLD; features/stock). */
  lowStockThreshold: number;
  /** What the uploads being received may take in an instance's spool together, in bytes (UPLOAD_SPOOL_MB). */
  uploadSpoolBytes: number;
  /** How often unused uploaded images are looked for and removed (features/uploads/sweep.ts). */
  imageSweepIntervalSeconds: number;
  /** The order lifecycle (features/orders/lifecycle.ts, docs/decisions/order-lifecycle.md). */
  orders: {
    /** How long an unpaid order holds its units (ORDER_HOLD_HOURS), in seconds. */
    holdSeconds: number;
    /** How often the expiry job looks for orders whose hold ran out. */
    expiryIntervalSeconds: number;
    /** What one customer's unpaid orders may hold at most: orders, and units across them. */
    maxUnpaid: number;
    maxUnpaidUnits: number;
    /** The share (percent) of a product's stock one customer may hold unpaid, and one address book within a hold's time. */
    maxSharePercent: number;
    /** Bookings one account may make an hour. */
    accountLimitPerHour: number;
    /** Bookings from one client address an hour; 0 for no count per address. */
    addressLimitPerHour: number;
  };
  /** Where Prometheus scrapes the metrics: METRICS_PORT, and /metrics with METRICS_TOKEN. */
  metricsPort: number | undefined;
  /** The address METRICS_PORT listens on (METRICS_HOST, by default 127.0.0.1), whatever HOST is. */
  metricsHost: string;
  metricsToken: string | undefined;
  /** How long a stopping instance still serves with /readyz at 503 (SHUTDOWN_GRACE_SECONDS). */
  shutdownGraceSeconds: number;
  seedDemo: boolean;
  /** Demo accounts with published passwords are created (SEED_DEMO outside production). */
  demoAccounts: boolean;
  logLevel: string;
  /**
   * The catalog's cached answers are given on node:http before Fastify (EARLY_ANSWERS, on unless
   * "false"; docs/decisions/early-catalog-answers.md); otherwise by the route's onRequest hook.
   */
  earlyAnswers: boolean;
  staticDir: string;
}

export interface Seller {
  name: string;
  address: string | undefined;
  email: string;
  /** A VAT or company registration number, where the seller has one. */
  taxId: string | undefined;
}

export interface UploadQuota {
  count: number;
  bytes: number;
}

const MB = 1024 * 1024;

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join("\n")}`);
    this.name = "ConfigError";
  }
}

/** Reads AUTH_SECRET from DATA_DIR, generating it on first start (development and test only). */
function persistedSecret(dataDir: string): string {
  const file = path.join(dataDir, "auth-secret");
  try {
    return readFileSync(file, "utf8").trim();
  } catch {
    mkdirSync(dataDir, { recursive: true });
    const secret = randomBytes(32).toString("base64url");
    writeFileSync(file, secret, { mode: 0o600, flag: "wx" });
    return secret;
  }
}

/** The address in a From header, "Name <address>" or a bare address. */
function addressOf(from: string): string {
  return (/<([^>]+)>/.exec(from)?.[1] ?? from).trim();
}

/**
 * The listen address: HOST when set; otherwise loopback while the demo accounts (whose passwords
 * the README publishes) exist, so the demo admin is not offered to the whole network, and every
 * interface when they do not.
 */
function listenHost(host: string | undefined, demoAccounts: boolean): { host: string; notice?: string } {
  if (host) return { host };
  if (demoAccounts) return { host: "127.0.0.1", notice: startupMessages.loopbackOnly };
  return { host: "0.0.0.0" };
}

export function loadConfig(source: NodeJS.ProcessEnv = process.env): Config {
  const parsed = envSchema.safeParse(source);
  if (!parsed.success) {
    throw new ConfigError(parsed.error.issues.map((i) => `${i.path.join(".") || "(env)"}: ${i.message}`));
  }
  const env = parsed.data;
  if (env.DATABASE_DIRECT_URL && !env.DATABASE_URL)
    throw new ConfigError([
      "DATABASE_DIRECT_URL: set it beside DATABASE_URL (a pooler's address), never on its own (docs/scaling.md)",
    ]);
  // The embedded PostgreSQL listens on loopback with no replication allowed: it has no replicas.
  if (env.DATABASE_REPLICA_URL.length > 0 && !env.DATABASE_URL)
    throw new ConfigError([
      "DATABASE_REPLICA_URL: set it beside DATABASE_URL (the primary's address), never on its own (docs/scaling.md)",
    ]);
  const dataDir = path.resolve(env.DATA_DIR);
  const publicUrl = (env.PUBLIC_URL ?? `http://localhost:${env.PORT}`).replace(/\/$/, "");
  const google =
    env.GOOGLE_CLIENT_ID && env.GOOGLE_CLIENT_SECRET
      ? {
          clientId: env.GOOGLE_CLIENT_ID,
          clientSecret: env.GOOGLE_CLIENT_SECRET,
          issuer: env.GOOGLE_ISSUER ?? "https://accounts.google.com",
        }
      : undefined;
  const stripe =
    env.STRIPE_SECRET_KEY && env.STRIPE_PUBLISHABLE_KEY
      ? {
          secretKey: env.STRIPE_SECRET_KEY,
          publishableKey: env.STRIPE_PUBLISHABLE_KEY,
          webhookSecret: env.STRIPE_WEBHOOK_SECRET,
          apiUrl: env.STRIPE_API_URL,
        }
      : undefined;
  // The schema has refused PAYMENTS=stripe without keys, and production without either.
  const payments = paymentsMode(env);
  const seedDemo = env.SEED_DEMO ? env.SEED_DEMO === "true" : env.NODE_ENV !== "production";
  const demoAccounts = seedDemo && env.NODE_ENV !== "production";
  const listen = listenHost(env.HOST, demoAccounts);
  return {
    env: env.NODE_ENV,
    port: env.PORT,
    host: listen.host,
    hostNotice: listen.notice,
    dataDir,
    databaseUrl: env.DATABASE_URL,
    databaseDirectUrl: env.DATABASE_DIRECT_URL,
    replicas: { urls: env.DATABASE_REPLICA_URL, maxLagSeconds: env.REPLICA_MAX_LAG_SECONDS },
    embeddedPgPort: env.EMBEDDED_PG_PORT,
    publicUrl,
    secureCookies: publicUrl.startsWith("https:"),
    authSecret: env.AUTH_SECRET ?? persistedSecret(dataDir),
    smtpUrl: env.SMTP_URL,
    mailFrom: env.MAIL_FROM,
    mail: {
      outboxIntervalSeconds: env.MAIL_OUTBOX_INTERVAL_SECONDS,
      maxAttempts: env.MAIL_MAX_ATTEMPTS,
      reminderSeconds: Math.round(env.ORDER_REMINDER_MINUTES * 60),
      perRecipientPerHour: env.MAIL_LIMIT_PER_RECIPIENT_PER_HOUR,
    },
    stockNoticeIntervalSeconds: env.STOCK_NOTICE_INTERVAL_SECONDS,
    retention: {
      intervalSeconds: env.RETENTION_INTERVAL_SECONDS,
      outboxDays: env.MAIL_OUTBOX_RETENTION_DAYS,
      cancelledIntentDays: env.CANCELLED_INTENT_RETENTION_DAYS,
      rateLimitSeconds: Math.max(24 * 3600, Math.round(env.ORDER_HOLD_HOURS * 3600)),
    },
    seller: {
      name: env.SELLER_NAME ?? "Gearhouse",
      address: env.SELLER_ADDRESS,
      email: env.SELLER_EMAIL ?? addressOf(env.MAIL_FROM),
      taxId: env.SELLER_TAX_ID,
    },
    google,
    stripe: payments === "stripe" ? stripe : undefined,
    payments,
    adminEmails: env.ADMIN_EMAILS,
    adminSecondFactor: env.ADMIN_SECOND_FACTOR ?? (env.NODE_ENV === "production" ? "required" : "optional"),
    trustProxy: env.TRUST_PROXY,
    authRateLimitPerMinute: env.AUTH_RATE_LIMIT_PER_MINUTE,
    authMailLimitPerHour: env.AUTH_MAIL_LIMIT_PER_HOUR,
    emailChangeLinkHours: env.EMAIL_CHANGE_LINK_HOURS,
    reviewLimitPerHour: env.REVIEW_LIMIT_PER_HOUR,
    invoiceDownloadsPerHour: env.INVOICE_DOWNLOADS_PER_HOUR,
    dataDownloadsPerHour: env.DATA_DOWNLOADS_PER_HOUR,
    uploadQuota: {
      user: { count: env.UPLOAD_LIMIT_PER_DAY, bytes: env.UPLOAD_MB_PER_DAY * MB },
      admin: { count: env.ADMIN_UPLOAD_LIMIT_PER_DAY, bytes: env.ADMIN_UPLOAD_MB_PER_DAY * MB },
    },
    uploadConcurrencyPerAccount: env.UPLOAD_CONCURRENCY_PER_ACCOUNT,
    lowStockThreshold: env.LOW_STOCK_THRESHOLD,
    uploadSpoolBytes: env.UPLOAD_SPOOL_MB * MB,
    imageSweepIntervalSeconds: env.IMAGE_SWEEP_INTERVAL_SECONDS,
    orders: {
      holdSeconds: Math.max(1, Math.round(env.ORDER_HOLD_HOURS * 3600)),
      expiryIntervalSeconds: env.ORDER_EXPIRY_INTERVAL_SECONDS,
      maxUnpaid: env.ORDER_MAX_UNPAID,
      maxUnpaidUnits: env.ORDER_MAX_UNPAID_UNITS,
      maxSharePercent: env.ORDER_MAX_SHARE_PERCENT,
      accountLimitPerHour: env.BOOKING_LIMIT_PER_HOUR,
      addressLimitPerHour: env.BOOKING_LIMIT_PER_ADDRESS_PER_HOUR,
    },
    shutdownGraceSeconds: env.SHUTDOWN_GRACE_SECONDS,
    metricsPort: env.METRICS_PORT,
    metricsHost: env.METRICS_HOST,
    metricsToken: env.METRICS_TOKEN,
    seedDemo,
    demoAccounts,
    logLevel: env.LOG_LEVEL,
    earlyAnswers: env.EARLY_ANSWERS !== "false",
    staticDir: path.resolve(env.STATIC_DIR ?? "dist/client"),
  };
}
