import { useState } from "react";
import { toast } from "sonner";
import { reviewMessages } from "../../../../shared/messages/reviews.js";
import type { ModeratedReview } from "../../../../shared/reviews.js";
import { AdminLoadError } from "../../../components/admin-only.js";
import { AdminPage } from "../../../components/admin-page.js";
import { LoadingState } from "../../../components/loading-state.js";
import { PagedTable } from "../../../components/paged-table.js";
import { RowActionButton } from "../../../components/row-action-button.js";
import { formatUtc } from "../../../lib/format.js";
import { useHiddenReviews, useHideReview, useRestoreReview, useReviewReports } from "../api/moderation.js";
import { ReasonDialog } from "../components/reason-dialog.js";

const m = reviewMessages.moderation;

function ReviewCell({ review }: { review: ModeratedReview }) {
  return (
    <>
      <span className="font-semibold">{review.name}</span>
      <span className="block max-w-md whitespace-pre-line break-words text-sm">{review.comment}</span>
      {review.hidden && review.hiddenBy ? (
        <span className="mt-1 block text-xs text-base-content/75">
          {m.hiddenBy(review.hiddenBy, review.hidden.reason)}
        </span>
      ) : null}
    </>
  );
}

/** Hide (asking why) or Restore, as the review stands. */
function ModerateButton({ review }: { review: ModeratedReview }) {
  const [asking, setAsking] = useState(false);
  const hide = useHideReview();
  const restore = useRestoreReview();
  if (review.hidden)
    return (
      <RowActionButton
        label={m.restore}
        name={m.restoreFor(review.name)}
        pending={restore.isPending}
        run={() => restore.mutateAsync(review.id)}
        done={m.restored}
      />
    );
  return (
    <>
      <button
        type="button"
        className="btn btn-sm btn-error btn-outline"
        aria-label={m.hideFor(review.name)}
        onClick={() => setAsking(true)}
      >
        {m.hide}
      </button>
      <ReasonDialog
        open={asking}
        title={m.hideTitle}
        text={m.hideHint}
        confirmLabel={m.hide}
        pending={hide.isPending}
        onConfirm={(reason) =>
          hide.mutateAsync({ id: review.id, reason }).then(() => toast.success(m.hidden))
        }
        onClose={() => setAsking(false)}
      />
    </>
  );
}

function Reports() {
  const reports = useReviewReports();
  if (!reports.isSuccess) return <LoadingState query={reports} failure={AdminLoadError} />;
  return (
    <div className="flex flex-col gap-3">
      <PagedTable
        pages={reports}
        caption={m.reportsCaption}
        captionId="reports-caption"
        columns={[m.when, m.review, m.reason, { label: m.hide, hidden: true }]}
        empty={m.reportsNone}
        more={m.more}
      >
        {(report) => (
          <tr key={report.id} className="align-top">
            <td className="whitespace-nowrap tabular-nums">{formatUtc(report.at)}</td>
            <td>
              <ReviewCell review={report.review} />
            </td>
            <td className="max-w-xs break-words">
              {report.reason}
              {report.reporterEmail ? (
                <span className="block text-xs text-base-content/75">
                  {m.reportedBy(report.reporterEmail)}
                </span>
              ) : null}
            </td>
            <td>
              <ModerateButton review={report.review} />
            </td>
          </tr>
        )}
      </PagedTable>
    </div>
  );
}

function Hidden() {
  const hidden = useHiddenReviews();
  if (!hidden.isSuccess) return <LoadingState query={hidden} failure={AdminLoadError} />;
  return (
    <div className="flex flex-col gap-3">
      <PagedTable
        pages={hidden}
        caption={m.hiddenCaption}
        captionId="hidden-caption"
        columns={[m.when, m.review, { label: m.restore, hidden: true }]}
        empty={m.hiddenNone}
        more={m.more}
      >
        {(review) => (
          <tr key={review.id} className="align-top">
            <td className="whitespace-nowrap tabular-nums">
              {review.hidden ? formatUtc(review.hidden.at) : null}
            </td>
            <td>
              <ReviewCell review={review} />
            </td>
            <td>
              <ModerateButton review={review} />
            </td>
          </tr>
        )}
      </PagedTable>
    </div>
  );
}

/** /dashboard/reviewModeration (admin): customers' reports and the hidden reviews. */
export function ReviewModerationPage() {
  return (
    <AdminPage title={m.title} lead={m.lead}>
      <div className="flex flex-col gap-10">
        <section aria-labelledby="reports-title">
          <h2 id="reports-title" className="mb-4 text-xl font-bold">
            {m.reports}
          </h2>
          <Reports />
        </section>
        <section aria-labelledby="hidden-title">
          <h2 id="hidden-title" className="mb-4 text-xl font-bold">
            {m.hiddenList}
          </h2>
          <Hidden />
        </section>
      </div>
    </AdminPage>
  );
}
