/**
 * Whether a query failed with this SQLSTATE: PostgreSQL's error, or one wrapping it as its cause
 * (Drizzle wraps the driver's errors).
 */
export function hasSqlState(error: unknown, code: string): boolean {
  const e = error as { code?: unknown; cause?: unknown } | undefined;
  return e?.code === code || (e?.cause !== undefined && e.cause !== e && hasSqlState(e.cause, code));
}

/**
 * Whether a query failed on a unique index (23505) whose name holds `index`: PostgreSQL names it
 * on its error, which Drizzle wraps as the cause of its own.
 */
export function violatesUnique(error: unknown, index: string): boolean {
  const e = error as { constraint?: string; cause?: { constraint?: string } } | undefined;
  return hasSqlState(error, "23505") && String(e?.cause?.constraint ?? e?.constraint).includes(index);
}
