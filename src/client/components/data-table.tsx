import type { ReactNode } from "react";

/** A column's heading; a hidden one is read by screen readers only (its cells' buttons speak for it). */
export type Column = string | { label: string; hidden: true };

type Props<Row> = {
  caption: string;
  /** Lets a surrounding TableRegion take its name from the caption. */
  captionId?: string;
  /** For a table the page heading already names: the caption is read, not shown. */
  hideCaption?: boolean;
  columns: readonly Column[];
  rows: readonly Row[];
  /** Stands in the body, across every column, while there are no rows. */
  empty?: string;
  /** One <tr> per row, with its key. */
  children(row: Row, index: number): ReactNode;
};

/** A daisyUI table with its caption and a header row of column headings. */
export function DataTable<Row>({
  caption,
  captionId,
  hideCaption,
  columns,
  rows,
  empty,
  children,
}: Props<Row>) {
  return (
    <table className="table">
      <caption
        id={captionId}
        className={hideCaption ? "sr-only" : "px-4 pt-4 text-left text-lg font-semibold"}
      >
        {caption}
      </caption>
      <thead>
        <tr>
          {columns.map((column) =>
            typeof column === "string" ? (
              <th key={column} scope="col">
                {column}
              </th>
            ) : (
              <th key={column.label} scope="col">
                <span className="sr-only">{column.label}</span>
              </th>
            ),
          )}
        </tr>
      </thead>
      <tbody>
        {rows.length === 0 && empty ? (
          <tr>
            <td colSpan={columns.length} className="text-base-content/75">
              {empty}
            </td>
          </tr>
        ) : (
          rows.map(children)
        )}
      </tbody>
    </table>
  );
}
