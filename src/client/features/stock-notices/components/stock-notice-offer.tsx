import { toast } from "sonner";
import { stockNoticeMessages as m } from "../../../../shared/messages/stock-notices.js";
import { problemMessage } from "../../../lib/form-errors.js";
import { useCancelNotice, useProductStockNotice, useSubscribe } from "../api/stock-notices.js";

/**
 * On the page of a product that cannot be booked: the offer to be mailed when it is back, or, once
 * asked, the way to take it back.
 */
export function StockNoticeOffer({ productId }: { productId: string }) {
  const notice = useProductStockNotice(productId);
  const subscribe = useSubscribe();
  const cancel = useCancelNotice();
  const busy = subscribe.isPending || cancel.isPending || notice.isPending;
  return (
    <section aria-labelledby="stock-notice-heading" className="rounded-box border border-base-content/10 p-5">
      <h2 id="stock-notice-heading" className="text-lg font-semibold">
        {notice.data ? m.subscribed : m.offer}
      </h2>
      <div className="mt-4">
        {notice.data ? (
          <button
            type="button"
            className="btn"
            disabled={busy}
            onClick={() =>
              notice.data &&
              cancel.mutate(notice.data.id, {
                onSuccess: () => toast.success(m.cancelled),
                onError: (error) => toast.error(problemMessage(error)),
              })
            }
          >
            {m.cancel}
          </button>
        ) : (
          <button
            type="button"
            className="btn btn-primary"
            disabled={busy}
            onClick={() =>
              subscribe.mutate(productId, {
                onSuccess: () => toast.success(m.subscribed),
                onError: (error) => toast.error(problemMessage(error)),
              })
            }
          >
            {m.subscribe}
          </button>
        )}
      </div>
    </section>
  );
}
