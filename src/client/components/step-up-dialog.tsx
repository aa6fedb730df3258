import { useEffect, useRef, useState } from "react";
import { secondFactorMessages as m } from "../../shared/messages/second-factor.js";
import { ApiError, secondFactorHandlers } from "../lib/api.js";
import {
  type CodeKind,
  PasskeyCancelled,
  passkeysSupported,
  provePasskey,
  verifyCode,
} from "../lib/second-factor.js";
import { ConfirmDialog } from "./confirm-dialog.js";
import { FactorCodeFields } from "./factor-code-fields.js";
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
  const [kind, setKind] = useState<CodeKind>("app");
  const [code, setCode] = useState("");
  const [error, setError] = useState<string | undefined>();
  const [pending, setPending] = useState(false);

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
  }, []);

  const finish = (proved: boolean) => {
    resolver.current?.(proved);
    resolver.current = null;
    asked.current = null;
    setOpen(false);
  };

  const run = async (prove: () => Promise<unknown>) => {
    setPending(true);
    setError(undefined);
    try {
      await prove();
      finish(true);
    } catch (cause) {
      if (cause instanceof PasskeyCancelled) setError(cause.message);
      else setError(cause instanceof ApiError ? (cause.detail ?? cause.message) : m.passkeyFailed);
    } finally {
      setPending(false);
    }
  };

  const submit = () => {
    if (!code.trim()) setError(m.codeRequired);
    else void run(() => verifyCode(kind, code));
  };

  return (
    <ConfirmDialog
      open={open}
      title={m.stepUpHeading}
      text={m.stepUpLead}
      confirmLabel={m.verify}
      cancelLabel={m.cancel}
      pending={pending}
      onConfirm={submit}
      onClose={() => finish(false)}
    >
      <div className="flex flex-col gap-3">
        {error ? <FormAlert>{error}</FormAlert> : null}
        <FactorCodeFields
          kind={kind}
          onKindChange={setKind}
          code={code}
          onCodeChange={setCode}
          onEnter={submit}
        />
        {passkeysSupported() ? (
          <button
            type="button"
            className="btn btn-outline btn-sm self-start"
            disabled={pending}
            onClick={() => void run(provePasskey)}
          >
            {m.usePasskey}
          </button>
        ) : null}
      </div>
    </ConfirmDialog>
  );
}
