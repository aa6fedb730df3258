import { useId, useState } from "react";
import { reviewMessages } from "../../../../shared/messages/reviews.js";
import { ConfirmDialog, type ConfirmDialogWords } from "../../../components/confirm-dialog.js";
import { ApiError } from "../../../lib/api.js";
import { problemMessage } from "../../../lib/form-errors.js";

const m = reviewMessages.moderation;

type Props = ConfirmDialogWords & {
  pending: boolean;
  /** Sends the reason; a refusal is shown under the field, and the dialog stays open. */
  onConfirm(reason: string): Promise<unknown>;
  onClose(): void;
};

/** A confirm dialog that asks why (a report or a hide): the server checks the reason, the field shows its word. */
export function ReasonDialog({ pending, onConfirm, onClose, ...words }: Props) {
  const id = useId();
  const [reason, setReason] = useState("");
  const [error, setError] = useState<string | null>(null);
  const close = () => {
    setReason("");
    setError(null);
    onClose();
  };
  return (
    <ConfirmDialog
      {...words}
      cancelLabel={m.cancel}
      pending={pending}
      onClose={close}
      onConfirm={() =>
        void onConfirm(reason).then(close, (failure: unknown) =>
          setError(
            failure instanceof ApiError && failure.errors[0]
              ? failure.errors[0].message
              : problemMessage(failure),
          ),
        )
      }
    >
      <label htmlFor={`${id}-reason`} className="mb-1 block text-sm font-medium">
        {m.reason}
      </label>
      <textarea
        id={`${id}-reason`}
        className={`textarea w-full ${error ? "textarea-error" : ""}`}
        rows={3}
        maxLength={500}
        value={reason}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        onChange={(event) => setReason(event.target.value)}
      />
      {error ? (
        <p id={`${id}-error`} role="alert" className="mt-1 text-sm text-error">
          {error}
        </p>
      ) : null}
    </ConfirmDialog>
  );
}
