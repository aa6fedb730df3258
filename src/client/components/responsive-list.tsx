import { type ReactNode, type Ref, useId } from "react";
import { useMediaQuery } from "../lib/use-media-query.js";
import { type Column, DataTable } from "./data-table.js";
import { TableRegion } from "./table-region.js";

/**
 * The one width from which a list is a table: below it the columns of the widest list (Manage
 * Orders) do not fit beside the dashboard's menu, so every list turns to cards at the same width.
 */
const WIDE = "(min-width: 80rem)";

type Props<Item extends { id: string }> = {
  caption: string;
  /** For a list the page heading already names: the caption is read, not shown. */
  hideCaption?: boolean;
  /** The table's column headings, the serial's first. */
  columns: readonly Column[];
  items: readonly Item[];
  /** The serial of the first item: rows and cards are numbered across pages. */
  first: number;
  /** Said in place of the items when there are none. */
  empty?: string;
  /** One table row (`<tr>`, its serial as row header) per item. */
  row: (item: Item, serial: number) => ReactNode;
  /** One item's card, labelled by the heading with `headingId` (see ListCard). */
  card: (item: Item, serial: number, headingId: string) => ReactNode;
  /** Classes around the table, e.g. narrower cells. */
  tableClassName?: string;
  /** The list's focusable frame, for a page to move focus to (a new page, a removed row). */
  ref?: Ref<HTMLElement>;
};

/**
 * A list of the dashboard (My Orders, Manage Orders, the users lists): a table in a region the
 * keyboard can scroll on wide screens; on narrow ones a numbered list of cards, so no column and no
 * button is cut off behind a sideways scroll.
 */
export function ResponsiveList<Item extends { id: string }>({
  caption,
  hideCaption,
  columns,
  items,
  first,
  empty,
  row,
  card,
  tableClassName,
  ref,
}: Props<Item>) {
  const wide = useMediaQuery(WIDE);
  const captionId = useId();
  if (wide)
    return (
      <TableRegion labelledBy={captionId} ref={ref}>
        <div className={tableClassName}>
          <DataTable
            caption={caption}
            captionId={captionId}
            hideCaption={hideCaption}
            columns={columns}
            rows={items}
            empty={empty}
          >
            {(item, index) => row(item, first + index)}
          </DataTable>
        </div>
      </TableRegion>
    );
  return (
    <section
      ref={ref}
      aria-labelledby={captionId}
      // Focusable by script only, for the focus a new page or a removed card leaves behind.
      tabIndex={-1}
      className="rounded-box border border-base-content/10 bg-base-200"
    >
      <h2 id={captionId} className={hideCaption ? "sr-only" : "px-4 pt-4 text-lg font-semibold"}>
        {caption}
      </h2>
      {items.length === 0 && empty ? <p className="px-4 pt-4 text-base-content/75">{empty}</p> : null}
      <ol className="grid gap-3 p-4 md:grid-cols-2">
        {items.map((item, index) => (
          <li key={item.id} value={first + index}>
            {card(item, first + index, `${captionId}-${item.id}`)}
          </li>
        ))}
      </ol>
    </section>
  );
}

type CardProps = {
  headingId: string;
  /** Read before the serial, e.g. "#". */
  serialLabel: string;
  serial: number;
  /** What the item is, after its serial in the card's heading. */
  title: ReactNode;
  /** Beside the heading, e.g. a thumbnail. */
  image?: ReactNode;
  /** Under the heading. */
  subtitle?: ReactNode;
  /** Label and value pairs. */
  details: ReadonlyArray<{ label: string; value: ReactNode; className?: string }>;
  /** After the details, e.g. a status. */
  children?: ReactNode;
  /** At the card's foot, e.g. its action. */
  footer?: ReactNode;
};

/** One item of a ResponsiveList on a narrow screen: every field and action in view. */
export function ListCard({
  headingId,
  serialLabel,
  serial,
  title,
  image,
  subtitle,
  details,
  children,
  footer,
}: CardProps) {
  return (
    <article
      aria-labelledby={headingId}
      className="flex h-full flex-col gap-3 rounded-box border border-base-content/10 bg-base-100 p-4"
    >
      <div className="flex items-start gap-3">
        {image}
        <div className="min-w-0">
          <h3 id={headingId} className="break-words font-semibold">
            <span className="text-base-content/70">
              {serialLabel}
              {serial.toLocaleString("en-US")}{" "}
            </span>
            {title}
          </h3>
          {subtitle}
        </div>
      </div>
      <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
        {details.map((detail) => (
          <div key={detail.label} className="contents">
            <dt className="text-base-content/75">{detail.label}</dt>
            <dd className={`min-w-0 ${detail.className ?? ""}`}>{detail.value}</dd>
          </div>
        ))}
      </dl>
      {children}
      {footer ? <div className="mt-auto">{footer}</div> : null}
    </article>
  );
}
