import { useState } from "react";
import { emailChangeRequestSchema } from "../../../../shared/email-change.js";
import { emailChangeMessages } from "../../../../shared/messages/email-change.js";
import { EmailField, PasswordField } from "../../../components/account-fields.js";
import { FormCard } from "../../../components/form-card.js";
import { SubmitButton } from "../../../components/submit-button.js";
import { showServerError } from "../../../lib/form-errors.js";
import { useSchemaForm } from "../../../lib/use-schema-form.js";
import { useRequestEmailChange } from "../api/email-change.js";

const text = emailChangeMessages.card;
const EMPTY = { newEmail: "", password: "" };

/**
 * Profile's Change email (issue 34, item 2): the new address and the current password. The server
 * mails a link to the new address and the email changes only when it is followed (the confirm-email
 * page); until then the card says where to look. Refusals are said at their field, or above the
 * button.
 */
export function ChangeEmailCard({ email }: { email: string }) {
  const request = useRequestEmailChange();
  const [sentTo, setSentTo] = useState<{ email: string; hours: number } | null>(null);
  const { register, handleSubmit, setError, reset, formState } = useSchemaForm(emailChangeRequestSchema, {
    defaultValues: EMPTY,
  });
  const { errors } = formState;
  const onSubmit = handleSubmit((values) => {
    setSentTo(null);
    request.mutate(values, {
      onSuccess: (answer) => {
        const hours = Math.round((new Date(answer.expiresAt).getTime() - Date.now()) / 3_600_000);
        setSentTo({ email: values.newEmail, hours: Math.max(1, hours) });
        reset(EMPTY);
      },
      onError: (error) => showServerError(error, ["newEmail", "password"], setError),
    });
  });
  return (
    <FormCard
      title={text.heading}
      lead={
        <>
          {text.lead} <span className="font-medium">{text.current(email)}</span>
        </>
      }
      onSubmit={onSubmit}
      serverError={errors.root?.server}
      actions={
        <div className="card-actions flex-col items-start gap-3">
          {sentTo ? (
            <p role="status" className="alert alert-success">
              {text.sent(sentTo.email, sentTo.hours)}
            </p>
          ) : null}
          <SubmitButton pending={request.isPending}>{text.submit}</SubmitButton>
        </div>
      }
    >
      <EmailField label={text.newEmail} error={errors.newEmail?.message} {...register("newEmail")} />
      <PasswordField label={text.password} error={errors.password?.message} {...register("password")} />
    </FormCard>
  );
}
