import { Link, useNavigate, useSearchParams } from "react-router";
import { toast } from "sonner";
import { z } from "zod";
import { newPasswordSchema, resetRequestSchema } from "../../../../shared/accounts.js";
import { accountMessages } from "../../../../shared/messages/accounts.js";
import { problemCodes } from "../../../../shared/problem-codes.js";
import { EmailField, NewPasswordFields } from "../../../components/account-fields.js";
import { Form } from "../../../components/form.js";
import { bindFields, bindSubmit } from "../../../components/form-bindings.js";
import { SubmitButton } from "../../../components/submit-button.js";
import { hasCode } from "../../../lib/api.js";
import { showServerError } from "../../../lib/form-errors.js";
import { paths } from "../../../lib/paths.js";
import { useSchemaForm } from "../../../lib/use-schema-form.js";
import { useRequestPasswordReset } from "../api/request-password-reset.js";
import { useResetPassword } from "../api/reset-password.js";
import { AuthCard } from "../components/auth-card.js";
import { withRedirect } from "../utils/redirect.js";

const text = accountMessages.pages;
const form = accountMessages.form;

function BackToLogin() {
  return (
    <p className="text-center text-sm">
      <Link to={paths.login} className="link link-primary">
        {form.backToLogin}
      </Link>
    </p>
  );
}

/** Step 1: ask for the mail. The answer never tells whether the email has an account. */
function ResetRequestForm() {
  const navigate = useNavigate();
  const request = useRequestPasswordReset();
  const emailForm = useSchemaForm(resetRequestSchema, { defaultValues: { email: "" } });
  const field = bindFields(emailForm);

  const submit = bindSubmit(emailForm, (values) =>
    request.mutate(values, {
      onSuccess: () => {
        toast.info(accountMessages.resetSent);
        void navigate(paths.login);
      },
      onError: (error) => showServerError(error, ["email"], emailForm.setError),
    }),
  );

  return (
    <AuthCard title={text.passwordReset} lead={text.passwordResetLead}>
      <Form
        {...submit}
        actions={<SubmitButton pending={request.isPending}>{form.sendResetLink}</SubmitButton>}
      >
        <EmailField label={form.email} {...field("email")} />
      </Form>
      <BackToLogin />
    </AuthCard>
  );
}

const setPasswordSchema = newPasswordSchema
  .extend({ confirm: z.string() })
  .refine((values) => values.password === values.confirm, {
    message: accountMessages.passwordsDiffer,
    path: ["confirm"],
  });

/** Step 2, from the mailed link: choose the new password. */
/**
 * Where the login page leads after the password is set: an admin link (`?then=secondFactor`,
 * features/accounts/admin-link.ts) goes on to the second factor's enrolment in My Profile.
 */
const afterReset = (then: string | null) =>
  then === "secondFactor"
    ? withRedirect(paths.login, `${paths.dashboard.myProfile}?secondFactor=required`)
    : paths.login;

function SetPasswordForm({ token, then }: { token: string; then: string | null }) {
  const navigate = useNavigate();
  const reset = useResetPassword();
  const passwordForm = useSchemaForm(setPasswordSchema, { defaultValues: { password: "", confirm: "" } });
  const { register, setError, formState } = passwordForm;
  const { errors } = formState;

  const submit = bindSubmit(passwordForm, (values) =>
    reset.mutate(
      { token, newPassword: values.password },
      {
        onSuccess: () => {
          toast.success(accountMessages.passwordChanged);
          void navigate(afterReset(then), { replace: true });
        },
        onError: (error) => showServerError(error, ["password"], setError),
      },
    ),
  );

  const linkInvalid = hasCode(reset.error, problemCodes.invalidToken);
  return (
    <AuthCard title={form.setNewPassword} lead={form.setNewPasswordLead}>
      <Form
        {...submit}
        serverErrorAction={
          linkInvalid ? (
            <Link to={paths.passwordReset} className="link mt-1 inline-block font-semibold">
              {form.requestNewLink}
            </Link>
          ) : null
        }
        actions={<SubmitButton pending={reset.isPending}>{form.savePassword}</SubmitButton>}
      >
        <NewPasswordFields password={register("password")} confirm={register("confirm")} errors={errors} />
      </Form>
      <BackToLogin />
    </AuthCard>
  );
}

/** /passwordReset: without a token asks for the mail; with `?token=` (the mailed link) sets the password. */
export function PasswordResetPage() {
  const [params] = useSearchParams();
  const token = params.get("token");
  return token ? (
    <SetPasswordForm key={token} token={token} then={params.get("then")} />
  ) : (
    <ResetRequestForm />
  );
}
