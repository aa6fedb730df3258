import { orderMessages } from "../../shared/messages/orders.js";

const dates = orderMessages.dates;
// Here rather than in lib/format.ts, which the home page loads: only dashboard pages show a deadline.
// Made on first use (see shared/format.ts): the first formatter loads the locale's data.
let dayAndTime: Intl.DateTimeFormat | undefined;

type Props = {
  /** When the unpaid order's hold ends (ISO 8601). */
  expiresAt: string;
  /** From useMinutesLeft(expiresAt): the count shown, 0 once the deadline has passed. */
  minutesLeft: number;
  className?: string;
};

/**
 * An unpaid order's time left to pay and its deadline, or that the time has run out. Plain text,
 * not a live region: it changes once a minute, which a screen reader need not announce; it is read
 * where it stands.
 */
export function PayDeadline({ expiresAt, minutesLeft, className = "" }: Props) {
  if (minutesLeft <= 0) return <p className={`text-error ${className}`}>{dates.holdEnded}</p>;
  const left = dates.left(Math.floor(minutesLeft / 60), minutesLeft % 60);
  dayAndTime ??= new Intl.DateTimeFormat("en-US", { dateStyle: "medium", timeStyle: "short" });
  return <p className={className}>{dates.payWithin(left, dayAndTime.format(new Date(expiresAt)))}</p>;
}
