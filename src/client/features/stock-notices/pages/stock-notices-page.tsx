import { Link } from "react-router";
import { toast } from "sonner";
import { stockNoticeMessages as m } from "../../../../shared/messages/stock-notices.js";
import { DashboardHeading } from "../../../components/dashboard-heading.js";
import { LoadError } from "../../../components/load-error.js";
import { MoreButton } from "../../../components/more-button.js";
import { Spinner } from "../../../components/spinner.js";
import { problemMessage } from "../../../lib/form-errors.js";
import { formatCount } from "../../../lib/format.js";
import { paths } from "../../../lib/paths.js";
import { useCancelNotice, useStockNoticePages } from "../api/stock-notices.js";

const day = (iso: string) =>
  new Date(iso).toLocaleDateString("en-US", {
    year: "numeric",
    month: "short",
    day: "numeric",
    timeZone: "UTC",
  });

/** /dashboard/stockNotices: the customer's back-in-stock subscriptions, newest first, to cancel. */
export function StockNoticesPage() {
  const pages = useStockNoticePages();
  const cancel = useCancelNotice();
  const items = pages.data?.pages.flatMap((page) => page.items) ?? [];
  return (
    <>
      <DashboardHeading title={m.list.title} lead={m.list.lead} />
      {pages.isPending ? (
        <Spinner />
      ) : pages.isError ? (
        <LoadError error={pages.error} onRetry={() => void pages.refetch()} />
      ) : items.length === 0 ? (
        <p>{m.list.empty}</p>
      ) : (
        <ul className="flex flex-col gap-3" aria-label={m.list.title}>
          {items.map((notice) => (
            <li
              key={notice.id}
              className="flex flex-wrap items-center justify-between gap-3 rounded-box border border-base-content/10 p-4"
            >
              <div>
                <Link to={paths.tool(notice.productId)} className="link font-semibold">
                  {notice.productName}
                </Link>
                <p className="text-sm text-base-content/80">
                  {m.list.stock}: {formatCount(notice.quantity)} · {m.list.asked} {day(notice.createdAt)} ·{" "}
                  {m.list.ends} {day(notice.endsAt)}
                </p>
              </div>
              <button
                type="button"
                className="btn btn-sm"
                aria-label={m.list.cancel(notice.productName)}
                disabled={cancel.isPending}
                onClick={() =>
                  cancel.mutate(notice.id, {
                    onSuccess: () => toast.success(m.cancelled),
                    onError: (error) => toast.error(problemMessage(error)),
                  })
                }
              >
                {m.list.cancelShort}
              </button>
            </li>
          ))}
        </ul>
      )}
      <MoreButton pages={pages} className="btn mt-6">
        {m.list.more}
      </MoreButton>
    </>
  );
}
