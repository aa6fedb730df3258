import { pricingMessages } from "../../shared/messages/pricing.js";
import { type AmountLine, amountLines, type OrderAmounts, orderTotal } from "../../shared/order-amounts.js";

const m = pricingMessages.amounts;

/**
 * An order's amounts as label and amount pairs (shared/order-amounts.ts): the subtotal, the
 * discount with its code, the net, the tax at its rate and the total, the total last and bold.
 */
export function AmountList({ lines, className = "" }: { lines: readonly AmountLine[]; className?: string }) {
  return (
    // The labels wrap (a code of 32 characters too) and the amounts never do, so a breakdown fits
    // a card at 390 px and a table's cell without widening its column.
    <dl className={`grid grid-cols-[minmax(0,1fr)_auto] gap-x-4 gap-y-0.5 ${className}`}>
      {lines.map((line) => (
        <div key={line.key} className="contents">
          <dt
            className={`[overflow-wrap:anywhere] ${line.key === "gross" ? "font-semibold" : "text-base-content/75"}`}
          >
            {line.label}
          </dt>
          <dd
            className={`whitespace-nowrap text-right tabular-nums ${line.key === "gross" ? "font-semibold" : ""}`}
          >
            {line.amount}
          </dd>
        </div>
      ))}
    </dl>
  );
}

/**
 * What the customer pays for an order (its gross, with cents when not whole) and, under it when
 * there is more to say than the total (a discount, tax), its amounts behind a disclosure a keyboard
 * and a screen reader open like any button. `label`: the disclosure's name in a list of orders.
 */
export function OrderTotal({ order, label }: { order: OrderAmounts; label: string }) {
  const lines = amountLines(order);
  return (
    <div className="flex flex-col items-start gap-0.5">
      <span className="whitespace-nowrap">{orderTotal(order)}</span>
      {lines.length > 1 ? (
        <details className="text-sm">
          <summary
            aria-label={label}
            className="cursor-pointer text-base-content/80 underline-offset-2 hover:underline"
          >
            {m.details}
          </summary>
          <AmountList lines={lines} className="mt-1 w-44 max-w-full" />
        </details>
      ) : null}
    </div>
  );
}
