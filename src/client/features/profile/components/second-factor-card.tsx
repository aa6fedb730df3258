import { type ReactNode, useState } from "react";
import { toast } from "sonner";
import { renderSVG } from "uqr";
import { secondFactorMessages as m } from "../../../../shared/messages/second-factor.js";
import { PasswordField } from "../../../components/account-fields.js";
import { CardSection } from "../../../components/card-section.js";
import { ConfirmDialog, type ConfirmDialogWords } from "../../../components/confirm-dialog.js";
import { FormAlert } from "../../../components/form-alert.js";
import { LoadError } from "../../../components/load-error.js";
import { PendingButton } from "../../../components/pending-button.js";
import { Spinner } from "../../../components/spinner.js";
import { TextField } from "../../../components/text-field.js";
import { problemMessage } from "../../../lib/form-errors.js";
import { formatUtc } from "../../../lib/format.js";
import { PasskeyCancelled, passkeysSupported } from "../../../lib/second-factor.js";
import {
  type Enrolment,
  useAddPasskey,
  useConfirmApp,
  useFactors,
  useNewBackupCodes,
  useRemoveApp,
  useRemovePasskey,
  useStartApp,
} from "../api/factors.js";

/** The backup codes, shown once: to copy or download before they are gone from the screen. */
function BackupCodes({ codes, onDone }: { codes: string[]; onDone(): void }) {
  const text = codes.join("\n");
  const download = `data:text/plain;charset=utf-8,${encodeURIComponent(`Gearhouse backup codes\n\n${text}\n`)}`;
  return (
    <div className="flex flex-col gap-3" data-testid="backup-codes">
      <h3 className="font-semibold">{m.backupCodesHeading}</h3>
      <ul className="grid grid-cols-2 gap-2 font-mono text-sm sm:grid-cols-5">
        {codes.map((code) => (
          <li key={code} className="rounded bg-base-100 px-2 py-1 text-center">
            {code}
          </li>
        ))}
      </ul>
      <div className="flex flex-wrap gap-2">
        <a className="btn btn-sm btn-outline" href={download} download="gearhouse-backup-codes.txt">
          {m.downloadCodes}
        </a>
        <button
          type="button"
          className="btn btn-sm btn-outline"
          onClick={() =>
            // Without the clipboard (an insecure origin, or refused), say so: Download still works.
            void Promise.resolve(navigator.clipboard?.writeText(text) ?? Promise.reject()).then(
              () => toast.success(m.copied),
              () => toast.error(m.copyFailed),
            )
          }
        >
          {m.copyCodes}
        </button>
        <button type="button" className="btn btn-sm btn-primary" onClick={onDone}>
          {m.done}
        </button>
      </div>
    </div>
  );
}

type StepProps = {
  /** The go-on button's label; pressing it (or Enter in a field) calls onNext. */
  label: string;
  pending: boolean;
  onNext(): void;
  onCancel(): void;
  children: ReactNode;
};

/** A set-up step: its form, with the buttons under its fields that go on, or give up. */
function StepForm({ label, pending, onNext, onCancel, children }: StepProps) {
  return (
    <form
      className="flex flex-col gap-3"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        onNext();
      }}
    >
      {children}
      <div className="flex gap-2">
        <PendingButton type="submit" className="btn btn-primary btn-sm" pending={pending} spinner="xs">
          {label}
        </PendingButton>
        <button type="button" className="btn btn-sm" onClick={onCancel}>
          {m.cancel}
        </button>
      </div>
    </form>
  );
}

/** Setting up the app: the password, then the key to scan or type and its first code, then the backup codes. */
function AppSetup({ userId, onClose }: { userId: string; onClose(): void }) {
  const start = useStartApp();
  const confirm = useConfirmApp(userId);
  const [password, setPassword] = useState("");
  const [code, setCode] = useState("");
  const [enrolment, setEnrolment] = useState<Enrolment | null>(null);
  const [done, setDone] = useState(false);

  if (enrolment && done)
    return (
      <div className="flex flex-col gap-2">
        <p role="status" className="text-sm">
          {m.appEnabled}
        </p>
        <BackupCodes codes={enrolment.backupCodes} onDone={onClose} />
      </div>
    );
  if (enrolment) {
    const key = new URL(enrolment.totpURI).searchParams.get("secret") ?? "";
    const qr = `data:image/svg+xml;utf8,${encodeURIComponent(renderSVG(enrolment.totpURI, { border: 2 }))}`;
    return (
      <StepForm
        label={m.confirmApp}
        pending={confirm.isPending}
        onNext={() => confirm.mutate(code, { onSuccess: () => setDone(true) })}
        onCancel={onClose}
      >
        <p className="text-sm text-base-content/85">{m.scanOrType}</p>
        <img src={qr} alt={m.qrAlt} width={176} height={176} className="rounded bg-white" />
        <p className="text-sm">
          {m.manualKey}:{" "}
          <code className="break-all font-mono" data-testid="totp-key">
            {key}
          </code>
        </p>
        <TextField
          label={m.code}
          name="code"
          value={code}
          onChange={(event) => setCode(event.target.value)}
          autoComplete="one-time-code"
          inputMode="numeric"
          maxLength={32}
          error={confirm.isError ? problemMessage(confirm.error) : undefined}
        />
      </StepForm>
    );
  }
  return (
    <StepForm
      label={m.continue}
      pending={start.isPending}
      onNext={() => start.mutate(password, { onSuccess: setEnrolment })}
      onCancel={onClose}
    >
      <p className="text-sm text-base-content/85">{m.passwordToSetUp}</p>
      <PasswordField
        label={m.password}
        name="password"
        value={password}
        onChange={(event) => setPassword(event.target.value)}
        error={start.isError ? problemMessage(start.error) : undefined}
      />
    </StepForm>
  );
}

type ProofDialogProps = ConfirmDialogWords & {
  /** The password typed, or undefined to prove the factor instead (the server then asks for it). */
  onProof(password: string | undefined): Promise<unknown>;
  onClose(): void;
  /** Whether the second factor may stand in for the password. */
  factorInstead?: boolean;
};

/** A dialog that asks for the password, or offers the second factor instead, before it acts. */
function ProofDialog({ onProof, onClose, factorInstead = true, ...words }: ProofDialogProps) {
  const [password, setPassword] = useState("");
  const [error, setError] = useState<string | undefined>();
  const [pending, setPending] = useState(false);
  const act = (proof: string | undefined) => {
    setPending(true);
    setError(undefined);
    onProof(proof).then(
      () => {
        setPending(false);
        setPassword("");
        onClose();
      },
      (cause: unknown) => {
        setPending(false);
        setError(problemMessage(cause));
      },
    );
  };
  return (
    <ConfirmDialog
      {...words}
      cancelLabel={m.cancel}
      pending={pending}
      onConfirm={() => (password ? act(password) : setError(m.confirmNeeded))}
      onClose={onClose}
    >
      <div className="flex flex-col gap-2">
        {error ? <FormAlert>{error}</FormAlert> : null}
        <PasswordField
          label={m.password}
          name="password"
          value={password}
          onChange={(event) => setPassword(event.target.value)}
        />
        {factorInstead ? (
          <button
            type="button"
            className="link link-primary self-start text-sm"
            disabled={pending}
            onClick={() => act(undefined)}
          >
            {m.useFactorInstead}
          </button>
        ) : null}
      </div>
    </ConfirmDialog>
  );
}

/** The dialogs the card opens: new backup codes, removing the app, or removing one passkey. */
type Dialog = "codes" | "remove-app" | { passkey: string; name: string };

/** My Profile's second factors: the app (set up, new backup codes, remove) and the passkeys. */
export function SecondFactorCard({ userId, required }: { userId: string; required: boolean }) {
  const factors = useFactors(userId);
  const newCodes = useNewBackupCodes(userId);
  const removeApp = useRemoveApp(userId);
  const addPasskey = useAddPasskey(userId);
  const removePasskey = useRemovePasskey(userId);
  const [settingUp, setSettingUp] = useState(false);
  const [shownCodes, setShownCodes] = useState<string[] | null>(null);
  const [dialog, setDialog] = useState<Dialog | null>(null);
  const [passkeyName, setPasskeyName] = useState("");
  const data = factors.data;
  const enrolled = (data?.app.enabled ?? false) || (data?.passkeys.length ?? 0) > 0;

  /** What the open dialog asks, and what it does with the proof. */
  const proofOf = (which: Dialog): Omit<ProofDialogProps, "open" | "onClose"> => {
    if (which === "codes")
      return {
        title: m.newBackupCodes,
        text: m.newBackupCodesLead,
        confirmLabel: m.continue,
        factorInstead: false,
        onProof: async (password) => {
          const { backupCodes } = await newCodes.mutateAsync(password ?? "");
          setShownCodes(backupCodes);
        },
      };
    if (which === "remove-app")
      return {
        title: m.removeApp,
        text: m.removeAppLead,
        confirmLabel: m.remove,
        onProof: async (password) => {
          await removeApp.mutateAsync(password);
          toast.success(m.removedApp);
        },
      };
    return {
      title: m.remove,
      text: m.removePasskeyLead(which.name),
      confirmLabel: m.remove,
      onProof: async (password) => {
        await removePasskey.mutateAsync({ id: which.passkey, password });
        toast.success(m.removedPasskey);
      },
    };
  };

  return (
    <CardSection id="second-factor-heading" title={m.heading} busy={factors.isPending}>
      <p className="text-sm text-base-content/85">{m.lead}</p>
      {required && !enrolled ? (
        <div role="alert" className="alert alert-warning alert-soft text-sm">
          {m.enrolRequired}
        </div>
      ) : null}
      {factors.isError ? <LoadError error={factors.error} onRetry={() => void factors.refetch()} /> : null}
      {factors.isPending ? <Spinner /> : null}
      {data ? (
        <>
          <div className="flex flex-wrap items-center justify-between gap-3">
            <div>
              <h3 className="font-semibold">{m.appLabel}</h3>
              <p className="text-sm text-base-content/85" data-testid="app-status">
                {data.app.enabled ? `${m.appOn} · ${m.backupCodesLeft(data.app.backupCodesLeft)}` : m.appOff}
              </p>
            </div>
            {data.app.enabled && !settingUp ? (
              <div className="flex flex-wrap gap-2">
                <button type="button" className="btn btn-sm btn-outline" onClick={() => setDialog("codes")}>
                  {m.newBackupCodes}
                </button>
                <button
                  type="button"
                  className="btn btn-sm btn-error btn-outline"
                  onClick={() => setDialog("remove-app")}
                >
                  {m.removeApp}
                </button>
              </div>
            ) : settingUp ? null : (
              <button type="button" className="btn btn-sm btn-primary" onClick={() => setSettingUp(true)}>
                {m.setUpApp}
              </button>
            )}
          </div>
          {settingUp ? <AppSetup userId={userId} onClose={() => setSettingUp(false)} /> : null}
          {shownCodes ? <BackupCodes codes={shownCodes} onDone={() => setShownCodes(null)} /> : null}

          <div className="flex flex-col gap-2">
            <h3 className="font-semibold">{m.passkeysLabel}</h3>
            {data.passkeys.length === 0 ? (
              <p className="text-sm text-base-content/85">{m.noPasskeys}</p>
            ) : null}
            <ul className="flex flex-col gap-2">
              {data.passkeys.map((key) => (
                <li key={key.id} className="flex flex-wrap items-center justify-between gap-2">
                  <span>
                    <span className="font-medium">{key.name || m.passkeysLabel}</span>{" "}
                    <span className="text-sm text-base-content/80">
                      {m.passkeyAdded(formatUtc(key.createdAt))}
                    </span>
                  </span>
                  <button
                    type="button"
                    className="btn btn-sm btn-error btn-outline"
                    aria-label={`${m.remove} ${key.name}`}
                    onClick={() => setDialog({ passkey: key.id, name: key.name })}
                  >
                    {m.remove}
                  </button>
                </li>
              ))}
            </ul>
            {passkeysSupported() ? (
              <form
                className="flex flex-wrap items-end gap-2"
                noValidate
                onSubmit={(event) => {
                  event.preventDefault();
                  addPasskey.mutate(passkeyName.trim(), {
                    onSuccess: () => {
                      setPasskeyName("");
                      toast.success(m.addedPasskey);
                    },
                    onError: (error) =>
                      toast.error(error instanceof PasskeyCancelled ? error.message : problemMessage(error)),
                  });
                }}
              >
                <div className="min-w-48 flex-1">
                  <TextField
                    label={m.passkeyName}
                    hint={m.passkeyNameHint}
                    name="passkeyName"
                    maxLength={60}
                    value={passkeyName}
                    onChange={(event) => setPasskeyName(event.target.value)}
                  />
                </div>
                <PendingButton
                  type="submit"
                  className="btn btn-sm btn-outline"
                  pending={addPasskey.isPending}
                  spinner="xs"
                >
                  {m.addPasskey}
                </PendingButton>
              </form>
            ) : null}
          </div>
        </>
      ) : null}

      {dialog ? (
        // Keyed by what it proves for, so a dialog never keeps another's typed password or error.
        <ProofDialog
          key={typeof dialog === "string" ? dialog : dialog.passkey}
          open
          {...proofOf(dialog)}
          onClose={() => setDialog(null)}
        />
      ) : null}
    </CardSection>
  );
}
