import { boolean, index, integer, pgEnum, pgTable, text } from "drizzle-orm/pg-core";
import { moment, timestamps } from "./columns.js";

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
    ...timestamps(),
  },
  (t) => [index("session_user_idx").on(t.userId)],
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
