import { orderNumber } from "../../shared/format.js";

/**
 * The order's own number ("#1A2B3C4D", shared/format.ts), the one its mails, its invoice and the
 * payment page name it by: under a list's serial, which only counts the rows. `label` is read
 * before it (the visible column heading is the serial's).
 */
export function OrderNumber({ id, label }: { id: string; label: string }) {
  return (
    <span className="block font-mono text-xs font-normal text-base-content/75">
      <span className="sr-only">{label}: </span>
      {orderNumber(id)}
    </span>
  );
}
