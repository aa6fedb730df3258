import { secondFactorMessages as m } from "../../shared/messages/second-factor.js";
import { type CodeKind, passkeysSupported } from "../lib/second-factor.js";
import type { useFactorProof } from "../lib/use-factor-proof.js";
import { TextField } from "./text-field.js";

type Props = {
  kind: CodeKind;
  onKindChange(kind: CodeKind): void;
  code: string;
  onCodeChange(code: string): void;
  error?: string | undefined;
  /** Enter in the field: what the form's button does. */
  onEnter(): void;
};

/**
 * The code of a second factor: the app's 6 digits, or a backup code, with the switch between them.
 * The input tells phones and password managers it takes a one-time code.
 */
function FactorCodeFields({ kind, onKindChange, code, onCodeChange, error, onEnter }: Props) {
  const app = kind === "app";
  return (
    <div className="flex flex-col gap-2">
      <p className="text-sm text-base-content/85">{app ? m.signInLead : m.backupCodeLead}</p>
      <TextField
        label={app ? m.code : m.backupCode}
        name="code"
        value={code}
        onChange={(event) => onCodeChange(event.target.value)}
        error={error}
        autoComplete="one-time-code"
        inputMode={app ? "numeric" : "text"}
        maxLength={32}
        spellCheck={false}
        onKeyDown={(event) => {
          if (event.key === "Enter") {
            event.preventDefault();
            onEnter();
          }
        }}
      />
      <button
        type="button"
        className="link link-primary self-start text-sm"
        onClick={() => onKindChange(app ? "backup" : "app")}
      >
        {app ? m.useBackupCode : m.useAppCode}
      </button>
    </div>
  );
}

/** A proof's fields: the code (app or backup) and, where the browser has them, the passkey's button. */
export function FactorProofFields({ proof }: { proof: ReturnType<typeof useFactorProof> }) {
  return (
    <div className="flex flex-col gap-3">
      <FactorCodeFields
        kind={proof.kind}
        onKindChange={proof.setKind}
        code={proof.code}
        onCodeChange={proof.setCode}
        onEnter={proof.submitCode}
      />
      {passkeysSupported() ? (
        <button
          type="button"
          className="btn btn-outline btn-sm self-start"
          disabled={proof.pending}
          onClick={proof.withPasskey}
        >
          {m.usePasskey}
        </button>
      ) : null}
    </div>
  );
}
