import { toast } from "sonner";
import { problemMessage } from "../lib/form-errors.js";
import { PendingButton } from "./pending-button.js";

type Props = {
  label: string;
  /** Names the row, since every row's button shows the same word. */
  name: string;
  pending: boolean;
  /** The action: mutateAsync's promise. */
  run(): Promise<unknown>;
  /** The toast once it has run. */
  done: string;
};

/**
 * A row's small action after which the row leaves its list (End a session, Restore a review). The
 * toast hangs on the promise, not on mutate's callbacks: the row leaves the list as it refreshes,
 * and mutate's callbacks die with it.
 */
export function RowActionButton({ label, name, pending, run, done }: Props) {
  return (
    <PendingButton
      className="btn btn-sm btn-outline"
      aria-label={name}
      pending={pending}
      spinner="xs"
      onClick={() =>
        run().then(
          () => toast.success(done),
          (error: unknown) => toast.error(problemMessage(error)),
        )
      }
    >
      {label}
    </PendingButton>
  );
}
