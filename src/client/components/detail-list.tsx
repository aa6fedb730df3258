import type { ReactNode } from "react";

/** One row of a DetailList: what it is, then its value. */
export type Detail = readonly [label: string, value: ReactNode];

type Props = {
  rows: readonly Detail[];
  /** The list's grid: its two columns and their gaps. */
  className: string;
  labelClassName: string;
  valueClassName: string;
};

/**
 * Labels and their values as a description list laid out in two columns (the order being paid
 * for, a discount code's settings): each pair a row of the grid, read in order.
 */
export function DetailList({ rows, className, labelClassName, valueClassName }: Props) {
  return (
    <dl className={className}>
      {rows.map(([label, value]) => (
        <div key={label} className="contents">
          <dt className={labelClassName}>{label}</dt>
          <dd className={valueClassName}>{value}</dd>
        </div>
      ))}
    </dl>
  );
}
