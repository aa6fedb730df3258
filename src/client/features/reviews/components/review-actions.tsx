import { useState } from "react";
import { toast } from "sonner";
import { reviewMessages } from "../../../../shared/messages/reviews.js";
import type { Review } from "../../../../shared/reviews.js";
import { useHideReview, useReportReview } from "../api/moderation.js";
import { ReasonDialog } from "./reason-dialog.js";

const m = reviewMessages.moderation;

/**
 * A review card's moderation button, for signed-in visitors only (loaded with its dialog when one
 * is signed in, so the home page's first bundle carries none of it): Report for a customer, Hide
 * for an admin, each asking why.
 */
export function ReviewActions({ review, admin }: { review: Review; admin: boolean }) {
  const [open, setOpen] = useState(false);
  const report = useReportReview();
  const hide = useHideReview();
  const send = (reason: string) =>
    admin
      ? hide.mutateAsync({ id: review.id, reason }).then(() => toast.success(m.hidden))
      : report.mutateAsync({ id: review.id, reason }).then(() => toast.success(m.reported));
  return (
    <>
      <button
        type="button"
        className="btn btn-ghost btn-xs"
        aria-label={admin ? m.hideFor(review.name) : m.reportFor(review.name)}
        onClick={() => setOpen(true)}
      >
        {admin ? m.hide : m.report}
      </button>
      <ReasonDialog
        open={open}
        title={admin ? m.hideTitle : m.reportTitle}
        text={admin ? m.hideHint : m.reportHint}
        confirmLabel={admin ? m.hide : m.report}
        pending={admin ? hide.isPending : report.isPending}
        onConfirm={send}
        onClose={() => setOpen(false)}
      />
    </>
  );
}
