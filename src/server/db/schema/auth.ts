import { boolean, index, integer, pgEnum, pgTable, text, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { createdAt, moment, timestamps } from "./columns.js";

export const roleEnum = pgEnum("role", ["user", "admin"]);

/** better-auth's user table, with the shop's phone and role. */
export const users = pgTable(
  "user",
  {
    id: text("id").primaryKey(),
    name: text("name").notNull(),
    email: text("email").notNull().unique(),
    emailVerified: boolean("email_verified").notNull().default(false),
    image: text("image"),
    phone: text("phone").notNull().default(""),
    role: roleEnum("role").notNull().default("user"),
    /** An authenticator app is enrolled and confirmed (better-auth's two-factor plugin). */
    twoFactorEnabled: boolean("two_factor_enabled").notNull().default(false),
    /**
     * The customer takes the optional mails (payment reminders, back in stock): turned off in
     * Profile or by a mail's one-click unsubscribe. Receipts, shipping and refunds always go.
     */
    reminderMails: boolean("reminder_mails").notNull().default(true),
    ...timestamps(),
  },
  (t) => [
    // All users and Make Admin list newest accounts first, a page at a time (keyset on these columns;
    // ascending, so that a backward scan gives PostgreSQL's default DESC order, NULLS FIRST).
    index("user_created_idx").on(t.createdAt, t.id),
    // ...and by role; also finds the admins, which removing or demoting one locks.
    index("user_role_created_idx").on(t.role, t.createdAt, t.id),
    // A search anywhere in a name or email, and at the start of one (pg_trgm, migration 0003).
    index("user_name_trgm_idx").using("gin", t.name.op("gin_trgm_ops")),
    index("user_email_trgm_idx").using("gin", t.email.op("gin_trgm_ops")),
  ],
);

/**
 * The account a row belongs to (user_id), the row removed with the account: its sessions, its
 * profile, its uploads' quota, its idempotency keys, its booking limits.
 */
export const ownerId = () => text("user_id").references(() => users.id, { onDelete: "cascade" });

export const sessions = pgTable(
  "session",
  {
    id: text("id").primaryKey(),
    token: text("token").notNull().unique(),
    userId: ownerId().notNull(),
    expiresAt: moment("expires_at").notNull(),
    ipAddress: text("ip_address"),
    userAgent: text("user_agent"),
    /**
     * When this session last proved a second factor: signed in with one (a code after the password,
     * or a passkey) or confirmed one since (a step-up). Admin routes and actions that cannot be
     * undone read it (features/accounts/second-factor.ts).
     */
    secondFactorAt: moment("second_factor_at"),
    ...timestamps(),
  },
  (t) => [index("session_user_idx").on(t.userId)],
);

/** An account's authenticator app: its secret and backup codes, encrypted (better-auth's two-factor plugin). */
export const twoFactors = pgTable("two_factor", {
  id: text("id").primaryKey(),
  secret: text("secret").notNull(),
  backupCodes: text("backup_codes").notNull(),
  /** One per account. */
  userId: ownerId().notNull().unique(),
  /** False until the first code from the app is confirmed. */
  verified: boolean("verified").notNull().default(true),
  /** Wrong codes at sign-in in a row; at 10 the account's second step is locked for 15 minutes. */
  failedVerificationCount: integer("failed_verification_count").notNull().default(0),
  lockedUntil: moment("locked_until"),
});

/** An account's passkeys (WebAuthn credentials, better-auth's passkey plugin). */
export const passkeys = pgTable(
  "passkey",
  {
    id: text("id").primaryKey(),
    name: text("name"),
    publicKey: text("public_key").notNull(),
    userId: ownerId().notNull(),
    credentialID: text("credential_id").notNull().unique(),
    counter: integer("counter").notNull(),
    deviceType: text("device_type").notNull(),
    backedUp: boolean("backed_up").notNull(),
    transports: text("transports"),
    createdAt: moment("created_at").defaultNow(),
    aaguid: text("aaguid"),
  },
  (t) => [index("passkey_user_idx").on(t.userId)],
);

export const accounts = pgTable(
  "account",
  {
    id: text("id").primaryKey(),
    accountId: text("account_id").notNull(),
    providerId: text("provider_id").notNull(),
    userId: ownerId().notNull(),
    accessToken: text("access_token"),
    refreshToken: text("refresh_token"),
    idToken: text("id_token"),
    accessTokenExpiresAt: moment("access_token_expires_at"),
    refreshTokenExpiresAt: moment("refresh_token_expires_at"),
    scope: text("scope"),
    password: text("password"),
    ...timestamps(),
  },
  (t) => [
    index("account_user_idx").on(t.userId),
    index("account_provider_idx").on(t.providerId, t.accountId),
  ],
);

export const verifications = pgTable(
  "verification",
  {
    id: text("id").primaryKey(),
    identifier: text("identifier").notNull(),
    value: text("value").notNull(),
    expiresAt: moment("expires_at").notNull(),
    ...timestamps(),
  },
  (t) => [
    index("verification_identifier_idx").on(t.identifier),
    // A reset link's value is its account's id: ending an account's links reads only its own rows.
    index("verification_value_idx").on(t.value),
  ],
);

/** Fixed-window rate-limit counters shared by every instance, bumped atomically. */
export const rateLimits = pgTable(
  "rate_limit",
  {
    key: text("key").primaryKey(),
    count: integer("count").notNull(),
    windowStart: moment("window_start").notNull(),
  },
  // The retention job reads the counters whose window ended long ago, oldest first.
  (t) => [index("rate_limit_window_start_idx").on(t.windowStart)],
);

/**
 * An email change the account asked for (features/accounts, docs/product.md "Your account"): the
 * new address gets a link carrying the token, whose SHA-256 alone is kept; the change takes effect
 * only when the link is followed, before expires_at, once. A newer request replaces an older one.
 */
export const emailChanges = pgTable(
  "email_change",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: ownerId().notNull(),
    newEmail: text("new_email").notNull(),
    tokenHash: text("token_hash").notNull(),
    expiresAt: moment("expires_at").notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("email_change_token_idx").on(t.tokenHash),
    uniqueIndex("email_change_user_idx").on(t.userId),
  ],
);
