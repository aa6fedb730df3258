import { useEffect, useRef } from "react";
import { reviewMessages } from "../../../../shared/messages/reviews.js";
import { LoadError } from "../../../components/load-error.js";
import { Spinner } from "../../../components/spinner.js";
import { useReviewPages } from "../api/get-review-pages.js";
import { ReviewCards } from "./review-cards.js";

const text = reviewMessages.form;

/** How far below the screen the next page starts loading, so the visitor rarely waits for it. */
const AHEAD = "0px 0px 600px 0px";

/**
 * Every review, newest first, a page at a time: the next page loads as the visitor nears the end
 * of the grid, or when they press Load more (the way for the keyboard, and where the scrolling
 * does not happen). How many are shown is said politely after each page.
 */
export function ReviewFeed({ className }: { className: string }) {
  const reviews = useReviewPages();
  const more = useRef<HTMLDivElement>(null);
  const { hasNextPage, isFetchingNextPage, isFetchNextPageError, fetchNextPage } = reviews;

  useEffect(() => {
    const target = more.current;
    if (!target || !hasNextPage || isFetchingNextPage || isFetchNextPageError) return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) void fetchNextPage();
      },
      { rootMargin: AHEAD },
    );
    observer.observe(target);
    return () => observer.disconnect();
  }, [hasNextPage, isFetchingNextPage, isFetchNextPageError, fetchNextPage]);

  if (reviews.isPending) return <Spinner />;
  if (reviews.isError && !reviews.data)
    return <LoadError error={reviews.error} onRetry={() => void reviews.refetch()} />;

  const items = reviews.data.pages.flatMap((page) => page.items);
  if (items.length === 0) return <p className="text-base-content/75">{reviewMessages.none}</p>;
  const total = reviews.data.pages[0]?.total ?? { count: items.length, exact: true };

  return (
    <>
      <ReviewCards reviews={items} className={className} />
      <div ref={more} className="mt-6 flex flex-col items-center gap-3">
        <p role="status" className="text-sm text-base-content/80">
          {hasNextPage
            ? text.showing(items.length, text.count(total.count, total.exact))
            : text.allShown(text.count(items.length, true))}
        </p>
        {isFetchNextPageError ? (
          <LoadError error={reviews.error} onRetry={() => void fetchNextPage()} />
        ) : hasNextPage ? (
          // Not disabled while loading: a disabled button would drop the keyboard focus it holds.
          <button
            type="button"
            className="btn btn-outline"
            aria-disabled={isFetchingNextPage}
            onClick={() => {
              if (!isFetchingNextPage) void fetchNextPage();
            }}
          >
            {isFetchingNextPage ? (
              <span className="loading loading-spinner loading-sm" aria-hidden="true" />
            ) : null}
            {text.loadMore}
          </button>
        ) : null}
      </div>
    </>
  );
}
