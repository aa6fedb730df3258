import { useEffect, useRef, useState } from "react";
import { secondFactorMessages as m } from "../../shared/messages/second-factor.js";
import { secondFactorHandlers } from "../lib/api.js";
import { useFactorProof } from "../lib/use-factor-proof.js";
import { ConfirmDialog } from "./confirm-dialog.js";
import { FactorProofFields } from "./factor-code-fields.js";
import { FormAlert } from "./form-alert.js";

/**
 * The step-up (docs/product.md, "Second factors"): when the server answers an action with 403
 * step-up-required, this dialog asks for a code or a passkey in place; once proved, lib/api.ts
 * sends the action again, so the person carries on where they were. Cancelled, the action fails
 * with the server's words. Mounted once, in the dashboard.
 */
export function StepUpDialog() {
  const resolver = useRef<((proved: boolean) => void) | null>(null);
  const asked = useRef<Promise<boolean> | null>(null);
  const [open, setOpen] = useState(false);

  const finish = (proved: boolean) => {
    resolver.current?.(proved);
    resolver.current = null;
    asked.current = null;
    setOpen(false);
  };
  const proof = useFactorProof(() => finish(true), m.passkeyFailed);
  const { setCode, setError } = proof;

  useEffect(() => {
    // Actions that ask at the same time share one dialog, and all go on once it is proved.
    secondFactorHandlers.stepUp = () => {
      asked.current ??= new Promise<boolean>((resolve) => {
        resolver.current = resolve;
        setCode("");
        setError(undefined);
        setOpen(true);
      });
      return asked.current;
    };
    return () => {
      secondFactorHandlers.stepUp = null;
    };
  }, [setCode, setError]);

  return (
    <ConfirmDialog
      open={open}
      title={m.stepUpHeading}
      text={m.stepUpLead}
      confirmLabel={m.verify}
      cancelLabel={m.cancel}
      pending={proof.pending}
      onConfirm={proof.submitCode}
      onClose={() => finish(false)}
    >
      <div className="flex flex-col gap-3">
        {proof.error ? <FormAlert>{proof.error}</FormAlert> : null}
        <FactorProofFields proof={proof} />
      </div>
    </ConfirmDialog>
  );
}
