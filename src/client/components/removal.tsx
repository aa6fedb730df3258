import { adminMessages } from "../../shared/messages/admin.js";
import type { useConfirmedRemoval } from "../lib/use-confirmed-removal.js";
import { ConfirmDialog } from "./confirm-dialog.js";
import { PendingButton } from "./pending-button.js";

type RemoveButtonProps = {
  label: string;
  /** Names the row, since every row's button shows the same word. */
  name: string;
  onClick(): void;
  /** The row's removal is running (when it runs without a confirm dialog). */
  pending?: boolean;
};

/** A row's Remove in a list: small, outlined in the error colour, named after its row. */
export function RemoveButton({ label, name, onClick, pending = false }: RemoveButtonProps) {
  return (
    <PendingButton
      className="btn btn-sm btn-error btn-outline"
      aria-label={name}
      pending={pending}
      spinner="xs"
      onClick={onClick}
    >
      {label}
    </PendingButton>
  );
}

type RemovalDialogProps<Row extends { id: string }> = {
  removal: ReturnType<typeof useConfirmedRemoval<Row>>;
  title: string;
  /** What exactly is about to go, said in the dialog. */
  explain(row: Row): string;
  confirmLabel: string;
};

/** The confirm dialog of a list's Remove (lib/use-confirmed-removal.ts): the row it asks about, and Cancel. */
export function RemovalDialog<Row extends { id: string }>({
  removal,
  title,
  explain,
  confirmLabel,
}: RemovalDialogProps<Row>) {
  return (
    <ConfirmDialog
      {...removal.dialog}
      title={title}
      text={removal.target ? explain(removal.target) : undefined}
      confirmLabel={confirmLabel}
      cancelLabel={adminMessages.cancel}
    />
  );
}
