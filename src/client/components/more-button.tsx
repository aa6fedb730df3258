import type { ReactNode } from "react";
import { PendingButton } from "./pending-button.js";

/** The part of an infinite query (TanStack's useInfiniteQuery) that a "more" button needs. */
export type Pages = {
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  fetchNextPage: () => Promise<unknown>;
};

/**
 * A list's "show more" button: there only while another page exists, busy while it loads. The
 * stock history and the back-in-stock list page through their rows the same way.
 */
export function MoreButton({
  pages,
  className,
  spinner,
  children,
}: {
  pages: Pages;
  className: string;
  spinner?: "xs" | "sm";
  children: ReactNode;
}) {
  if (!pages.hasNextPage) return null;
  return (
    <PendingButton
      type="button"
      className={className}
      pending={pages.isFetchingNextPage}
      spinner={spinner}
      onClick={() => void pages.fetchNextPage()}
    >
      {children}
    </PendingButton>
  );
}
