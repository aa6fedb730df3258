import { toast } from "sonner";
import { changePasswordSchema } from "../../../../shared/accounts.js";
import { accountMessages } from "../../../../shared/messages/accounts.js";
import { NewPasswordFields, PasswordField } from "../../../components/account-fields.js";
import { bindFields, bindSubmit } from "../../../components/form-bindings.js";
import { FormCard } from "../../../components/form-card.js";
import { SubmitButton } from "../../../components/submit-button.js";
import { showServerError } from "../../../lib/form-errors.js";
import { useSchemaForm } from "../../../lib/use-schema-form.js";
import { useChangePassword } from "../api/change-password.js";

const text = accountMessages.changePassword;
const EMPTY = { currentPassword: "", password: "", confirm: "" };

/**
 * Profile's Change password (issue 34, item 1): the current password and the new one, checked by
 * the spec's rules and texts as sign-up checks it. The server ends the account's other sessions and
 * mails the address; a wrong current password is said above the button.
 */
export function ChangePasswordCard({ userId }: { userId: string }) {
  const change = useChangePassword(userId);
  const form = useSchemaForm(changePasswordSchema, { defaultValues: EMPTY });
  const { register, setError, reset, formState } = form;
  const { errors } = formState;
  const field = bindFields(form);
  const submit = bindSubmit(form, (values) =>
    change.mutate(
      { currentPassword: values.currentPassword, newPassword: values.password },
      {
        onSuccess: () => {
          toast.success(text.done);
          reset(EMPTY);
        },
        onError: (error) => showServerError(error, ["currentPassword", "password"], setError),
      },
    ),
  );
  return (
    <FormCard
      title={text.heading}
      lead={text.lead}
      {...submit}
      actions={<SubmitButton pending={change.isPending}>{text.submit}</SubmitButton>}
    >
      <PasswordField label={text.currentPassword} {...field("currentPassword")} />
      <NewPasswordFields password={register("password")} confirm={register("confirm")} errors={errors} />
    </FormCard>
  );
}
