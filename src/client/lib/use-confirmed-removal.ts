import type { UseMutationResult } from "@tanstack/react-query";
import { type RefObject, useRef, useState } from "react";
import { toast } from "sonner";
import { problemMessage } from "./form-errors.js";

/**
 * A table's Remove flow: a row's Remove opens the confirm dialog for that row, Confirm runs the
 * removal and says how it went. The row that had focus is gone once the removal succeeds, so focus
 * then goes to the table's region (`regionRef`) instead of the page's start. Any other confirmed
 * action that takes its row's button away (Manage Orders' Refund) runs the same way; a table with
 * two such actions hands both one region (`sharedRegionRef`).
 */
export function useConfirmedRemoval<Row extends { id: string }>(
  remove: UseMutationResult<unknown, Error, string>,
  removedMessage: string,
  sharedRegionRef?: RefObject<HTMLElement | null>,
) {
  const [target, setTarget] = useState<Row | null>(null);
  const ownRegionRef = useRef<HTMLElement>(null);
  const regionRef = sharedRegionRef ?? ownRegionRef;
  const refocus = useRef(false);

  const onConfirm = () => {
    if (!target) return;
    remove.mutate(target.id, {
      onSuccess: () => {
        toast.success(removedMessage);
        refocus.current = true;
        setTarget(null);
      },
      onError: (error) => {
        toast.error(problemMessage(error));
        setTarget(null);
      },
    });
  };

  const onClose = () => {
    setTarget(null);
    if (refocus.current) {
      refocus.current = false;
      regionRef.current?.focus();
    }
  };

  return {
    /** The row the dialog asks about, if it is open. */
    target,
    /** Opens the dialog for a row. */
    ask: setTarget,
    regionRef,
    /** Spread onto the ConfirmDialog. */
    dialog: { open: target !== null, pending: remove.isPending, onConfirm, onClose },
  };
}
