import { Link } from "react-router";
import { catalogMessages } from "../../../../shared/messages/catalog.js";

type Props = {
  page: number;
  pageCount: number;
  hrefFor: (page: number) => string;
};

/** Page numbers around the current one, with the first and last always reachable. */
type Gap = "gap-before" | "gap-after";

function visiblePages(page: number, pageCount: number): Array<number | Gap> {
  const wanted = new Set([1, pageCount, page - 1, page, page + 1]);
  const pages = [...wanted].filter((p) => p >= 1 && p <= pageCount).sort((a, b) => a - b);
  const result: Array<number | Gap> = [];
  for (const p of pages) {
    const previous = result.at(-1);
    if (typeof previous === "number" && p - previous > 1) result.push(p <= page ? "gap-before" : "gap-after");
    result.push(p);
  }
  return result;
}

export function Pagination({ page, pageCount, hrefFor }: Props) {
  if (pageCount <= 1) return null;
  const text = catalogMessages;
  const step = (target: number, label: string, symbol: string) =>
    target < 1 || target > pageCount ? (
      <span className="join-item btn btn-disabled" aria-hidden="true">
        {symbol}
      </span>
    ) : (
      <Link to={hrefFor(target)} className="join-item btn border-base-content/15" aria-label={label}>
        {symbol}
      </Link>
    );
  return (
    <nav aria-label={text.pagination} className="mt-12 flex justify-center">
      <div className="join">
        {step(page - 1, text.previousPage, "«")}
        {visiblePages(page, pageCount).map((p) =>
          typeof p === "string" ? (
            <span key={p} className="join-item btn btn-disabled" aria-hidden="true">
              …
            </span>
          ) : (
            <Link
              key={p}
              to={hrefFor(p)}
              aria-label={text.page(p)}
              aria-current={p === page ? "page" : undefined}
              className={p === page ? "join-item btn btn-primary" : "join-item btn border-base-content/15"}
            >
              {p}
            </Link>
          ),
        )}
        {step(page + 1, text.nextPage, "»")}
      </div>
    </nav>
  );
}
