/** Calendar days as an admin picks them in a date field (YYYY-MM-DD), in this browser's time zone. */

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** A calendar day's midnight in this browser's time zone, `days` later. */
export function midnight(day: string, days = 0): Date {
  const [y, m, d] = day.split("-").map(Number);
  return new Date(y ?? 0, (m ?? 1) - 1, (d ?? 1) + days);
}

/** Whether a URL's value is a real calendar day. */
export const isDay = (value: string | null): value is string =>
  value !== null && DAY.test(value) && !Number.isNaN(midnight(value).getTime());
