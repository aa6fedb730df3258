import type { ReactNode } from "react";
import { type Column, DataTable } from "./data-table.js";
import { MoreButton, type Pages } from "./more-button.js";
import { TableRegion } from "./table-region.js";

type Props<Row> = {
  /** The loaded infinite query: its pages' items, in order, are the table's rows. */
  pages: Pages & { data: { pages: readonly { items: readonly Row[] }[] } };
  caption: string;
  /** The caption's id, which names the scrolling region too. */
  captionId: string;
  columns: readonly Column[];
  /** Stands in the body while there are no rows. */
  empty: string;
  /** The label of the button that loads the next page. */
  more: string;
  /** One <tr> per row, with its key. */
  children(row: Row): ReactNode;
};

/**
 * A dashboard table read a page at a time (the stock history, the activity log, the discount codes
 * and their uses, the review reports): the rows loaded so far in a scrolling region, then a small
 * "more" button while another page exists.
 */
export function PagedTable<Row>({ pages, caption, captionId, columns, empty, more, children }: Props<Row>) {
  return (
    <>
      <TableRegion labelledBy={captionId}>
        <DataTable
          caption={caption}
          captionId={captionId}
          columns={columns}
          rows={pages.data.pages.flatMap((page) => page.items)}
          empty={empty}
        >
          {children}
        </DataTable>
      </TableRegion>
      <MoreButton pages={pages} className="btn btn-sm self-start" spinner="xs">
        {more}
      </MoreButton>
    </>
  );
}
