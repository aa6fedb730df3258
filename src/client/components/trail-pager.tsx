import { Link } from "react-router";
import { messages } from "../../shared/messages.js";
import type { PageLink, useCursorPaging } from "../lib/use-cursor-paging.js";

const text = messages.order.list;

type Props = {
  paging: ReturnType<typeof useCursorPaging>;
  /** The server's cursor for the page after this one; null on the last page. */
  nextCursor: string | null;
};

function Step({
  to,
  label,
  symbol,
  after,
}: {
  to?: PageLink;
  label: string;
  symbol: string;
  after?: boolean;
}) {
  if (!to) return <span className="btn btn-disabled invisible" aria-hidden="true" />;
  return (
    <Link to={to.search} state={to.state} className="btn border-base-content/15" preventScrollReset>
      {after ? null : <span aria-hidden="true">{symbol}</span>}
      {label}
      {after ? <span aria-hidden="true">{symbol}</span> : null}
    </Link>
  );
}

/**
 * Previous and Next for a cursor-paged list (lib/use-cursor-paging.ts): links, so a page opens in a
 * new tab too. A page reached from a shared link offers the first page instead of Previous.
 */
export function TrailPager({ paging, nextCursor }: Props) {
  if (paging.page === 1 && !nextCursor) return null;
  return (
    <nav aria-label={text.pages} className="mt-6 flex flex-wrap items-center justify-between gap-3">
      {paging.previous ? (
        <Step to={paging.previous} label={text.previous} symbol="«" />
      ) : (
        <Step to={paging.first} label={text.first} symbol="«" />
      )}
      <span className="text-sm text-base-content/80">{text.page(paging.page)}</span>
      <Step to={nextCursor ? paging.next(nextCursor) : undefined} label={text.next} symbol="»" after />
    </nav>
  );
}
