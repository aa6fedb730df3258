/**
 * A random 128-bit hex key, e.g. for Idempotency-Key. crypto.randomUUID exists only in secure
 * contexts; getRandomValues works everywhere.
 */
export function randomKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}
