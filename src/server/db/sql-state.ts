/**
 * Whether a query failed with this SQLSTATE: PostgreSQL's error, or one wrapping it as its cause
 * (Drizzle wraps the driver's errors).
 */
export function hasSqlState(error: unknown, code: string): boolean {
  const e = error as { code?: unknown; cause?: unknown } | undefined;
  return e?.code === code || (e?.cause !== undefined && e.cause !== e && hasSqlState(e.cause, code));
}
