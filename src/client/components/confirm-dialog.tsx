import { type ReactNode, useEffect, useId, useRef } from "react";
import { PendingButton } from "./pending-button.js";

type Props = {
  open: boolean;
  title: string;
  text?: string | undefined;
  confirmLabel: string;
  cancelLabel: string;
  /** While the confirmed action runs, both buttons wait and Escape does not close. */
  pending?: boolean;
  onConfirm(): void;
  /** Called whenever the dialog closes: Cancel, Escape, a click beside it, or `open` turning false. */
  onClose(): void;
  /** Fields the action needs (a reason): shown under the text, and the first of them gets the focus. */
  children?: ReactNode;
};

/** What a dialog built on this one (one that asks for a reason, a password) says: passed through as is. */
export type ConfirmDialogWords = Pick<Props, "open" | "title" | "text" | "confirmLabel">;

/**
 * A daisyUI modal on the native <dialog>: showModal() traps focus and makes the page inert, Escape
 * cancels, and closing returns focus to the button that opened it. Cancel gets the first focus so
 * Enter never confirms a removal by accident; a dialog with fields (a reason) focuses the first.
 */
export function ConfirmDialog({
  open,
  title,
  text,
  confirmLabel,
  cancelLabel,
  pending,
  onConfirm,
  onClose,
  children,
}: Props) {
  const dialogRef = useRef<HTMLDialogElement>(null);
  const cancelRef = useRef<HTMLButtonElement>(null);
  const titleId = useId();
  const textId = useId();

  useEffect(() => {
    const dialog = dialogRef.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      dialog.showModal();
      const field = dialog.querySelector<HTMLElement>("[data-dialog-fields] :is(input, textarea, select)");
      (field ?? cancelRef.current)?.focus();
    } else if (!open && dialog.open) {
      dialog.close();
    }
  }, [open]);

  return (
    // biome-ignore lint/a11y/useKeyWithClickEvents: the click only mirrors Escape, the dialog's own keyboard path.
    <dialog
      ref={dialogRef}
      className="modal"
      aria-labelledby={titleId}
      aria-describedby={text ? textId : undefined}
      onClose={onClose}
      onCancel={(event) => {
        if (pending) event.preventDefault();
      }}
      // A click on the backdrop (the dialog itself, around its box) cancels, as Escape does.
      onClick={(event) => {
        if (event.target === event.currentTarget && !pending) event.currentTarget.close();
      }}
    >
      <div className="modal-box border border-base-content/10">
        <h2 id={titleId} className="text-lg font-bold">
          {title}
        </h2>
        {text ? (
          <p id={textId} className="pt-3 text-base-content/85">
            {text}
          </p>
        ) : null}
        {children ? (
          <div data-dialog-fields className="pt-3">
            {children}
          </div>
        ) : null}
        <div className="modal-action">
          <PendingButton className="btn btn-error" onClick={onConfirm} pending={pending ?? false}>
            {confirmLabel}
          </PendingButton>
          <button
            ref={cancelRef}
            type="button"
            className="btn"
            onClick={() => dialogRef.current?.close()}
            disabled={pending}
          >
            {cancelLabel}
          </button>
        </div>
      </div>
    </dialog>
  );
}
