import { useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useEffect, useRef, useState } from "react";
import { useNavigate } from "react-router";
import { toast } from "sonner";
import { deleteAccountFormSchema } from "../../../../shared/account-deletion.js";
import { accountDeletionMessages as m } from "../../../../shared/messages/account-deletion.js";
import { PasswordField } from "../../../components/account-fields.js";
import { ConfirmDialog } from "../../../components/confirm-dialog.js";
import { bindFields } from "../../../components/form-bindings.js";
import { FormCard } from "../../../components/form-card.js";
import { PendingButton } from "../../../components/pending-button.js";
import { showServerError } from "../../../lib/form-errors.js";
import { paths } from "../../../lib/paths.js";
import { useSchemaForm } from "../../../lib/use-schema-form.js";
import { forgetAccount, useDeleteAccount } from "../api/delete-account.js";
import { useFactors } from "../api/factors.js";

/**
 * Profile's Delete my account (issue 34, item 4; docs/product.md, "Deleting your account"): what
 * is erased and what is kept, the password (an account without one signs in again instead), then
 * the shop's confirm dialog. An account with a second factor is asked for it by the dashboard's
 * step-up dialog when the server wants it. Once deleted, the browser is signed out and on the home
 * page, with a toast.
 */
export function DeleteAccountCard({ userId }: { userId: string }) {
  const factors = useFactors(userId);
  // Until the factors load, a password is asked: most accounts have one, and the server decides.
  const hasPassword = factors.data?.hasPassword ?? true;
  const hasFactor = Boolean(factors.data && (factors.data.app.enabled || factors.data.passkeys.length > 0));
  const remove = useDeleteAccount();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [asking, setAsking] = useState<{ password?: string } | null>(null);
  // The session is forgotten once the card is gone, i.e. the home page is drawn: forgotten before,
  // the signed-in area's guard would send the visitor to sign in (the router's move to the home
  // page is a transition, which an urgent update of the session would overtake).
  const deleted = useRef(false);
  useEffect(
    () => () => {
      if (deleted.current) forgetAccount(queryClient);
    },
    [queryClient],
  );
  const form = useSchemaForm(deleteAccountFormSchema, { defaultValues: { password: "" } });
  const { handleSubmit, setError, formState } = form;
  const field = bindFields(form);
  const ask = (input: { password?: string }) => setAsking(input);
  const onSubmit = hasPassword
    ? handleSubmit((values) => ask({ password: values.password }))
    : (event: FormEvent) => {
        event.preventDefault();
        ask({});
      };

  const confirm = () => {
    const input = asking ?? {};
    // The dialog closes first: the step-up dialog, when the server asks for it, opens alone.
    setAsking(null);
    remove.mutateAsync(input).then(
      () => {
        deleted.current = true;
        toast.success(m.done);
        void navigate(paths.home, { replace: true });
      },
      (error: unknown) => showServerError(error, ["password"], setError),
    );
  };

  return (
    <>
      <FormCard
        title={m.heading}
        lead={m.lead}
        onSubmit={onSubmit}
        serverError={formState.errors.root?.server}
        actions={
          <div className="card-actions">
            <PendingButton type="submit" className="btn btn-error" pending={remove.isPending}>
              {m.submit}
            </PendingButton>
          </div>
        }
      >
        <ul className="list-disc space-y-2 pl-5 text-base-content/85">
          <li>{m.erased}</li>
          <li>{m.kept}</li>
          <li>{m.again}</li>
        </ul>
        {hasPassword ? (
          <PasswordField label={m.password} {...field("password")} />
        ) : (
          <p className="text-base-content/85">{m.noPassword}</p>
        )}
        {hasFactor ? <p className="text-base-content/85">{m.secondFactor}</p> : null}
      </FormCard>
      <ConfirmDialog
        open={asking !== null}
        title={m.confirmTitle}
        text={m.confirmText}
        confirmLabel={m.confirm}
        cancelLabel={m.cancel}
        onConfirm={confirm}
        onClose={() => setAsking(null)}
      />
    </>
  );
}
