import type { ReactNode, Ref } from "react";

type Props = {
  cancelLabel: string;
  /** While the action runs, Cancel waits with it. */
  pending: boolean;
  /** Closes the dialog; its onClose says what closing means. */
  onCancel(): void;
  /** For a dialog that gives Cancel the first focus (ConfirmDialog). */
  cancelRef?: Ref<HTMLButtonElement>;
  /** The button that acts. */
  children: ReactNode;
};

/** A modal's buttons: the one that acts, then Cancel. */
export function DialogActions({ cancelLabel, pending, onCancel, cancelRef, children }: Props) {
  return (
    <div className="modal-action">
      {children}
      <button ref={cancelRef} type="button" className="btn" onClick={onCancel} disabled={pending}>
        {cancelLabel}
      </button>
    </div>
  );
}
