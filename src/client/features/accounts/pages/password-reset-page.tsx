import { zodResolver } from "@hookform/resolvers/zod";
import { useForm } from "react-hook-form";
import { Link, useNavigate, useSearchParams } from "react-router";
import { toast } from "sonner";
import { z } from "zod";
import {
  newPasswordSchema,
  type ResetRequestInput,
  resetRequestSchema,
} from "../../../../shared/accounts.js";
import { accountMessages } from "../../../../shared/messages/accounts.js";
import { FormAlert } from "../../../components/form-alert.js";
import { SubmitButton } from "../../../components/submit-button.js";
import { TextField } from "../../../components/text-field.js";
import { ApiError } from "../../../lib/api.js";
import { showServerError } from "../../../lib/form-errors.js";
import { paths } from "../../../lib/paths.js";
import { type ResetRequestValues, useRequestPasswordReset } from "../api/request-password-reset.js";
import { useResetPassword } from "../api/reset-password.js";
import { AuthCard } from "../components/auth-card.js";

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
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors },
  } = useForm<ResetRequestInput, unknown, ResetRequestValues>({
    resolver: zodResolver(resetRequestSchema),
    mode: "onSubmit",
    reValidateMode: "onChange",
    defaultValues: { email: "" },
  });

  const onSubmit = handleSubmit((values) =>
    request.mutate(values, {
      onSuccess: () => {
        toast.info(accountMessages.resetSent);
        void navigate(paths.login);
      },
      onError: (error) => showServerError(error, ["email"], setError),
    }),
  );

  return (
    <AuthCard title={text.passwordReset} lead={text.passwordResetLead}>
      <form onSubmit={onSubmit} noValidate className="flex flex-col gap-5">
        <TextField
          label={form.email}
          type="email"
          inputMode="email"
          autoComplete="email"
          error={errors.email?.message}
          {...register("email")}
        />
        {errors.root?.server ? <FormAlert>{errors.root.server.message}</FormAlert> : null}
        <SubmitButton pending={request.isPending}>{form.sendResetLink}</SubmitButton>
      </form>
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
type SetPasswordInput = z.input<typeof setPasswordSchema>;
type SetPasswordValues = z.output<typeof setPasswordSchema>;

/** Step 2, from the mailed link: choose the new password. */
function SetPasswordForm({ token }: { token: string }) {
  const navigate = useNavigate();
  const reset = useResetPassword();
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors },
  } = useForm<SetPasswordInput, unknown, SetPasswordValues>({
    resolver: zodResolver(setPasswordSchema),
    mode: "onSubmit",
    reValidateMode: "onChange",
    defaultValues: { password: "", confirm: "" },
  });

  const onSubmit = handleSubmit((values) =>
    reset.mutate(
      { token, newPassword: values.password },
      {
        onSuccess: () => {
          toast.success(accountMessages.passwordChanged);
          void navigate(paths.login, { replace: true });
        },
        onError: (error) => showServerError(error, ["password"], setError),
      },
    ),
  );

  const linkInvalid =
    reset.error instanceof ApiError && reset.error.detail === accountMessages.resetLinkInvalid;
  return (
    <AuthCard title={form.setNewPassword} lead={form.setNewPasswordLead}>
      <form onSubmit={onSubmit} noValidate className="flex flex-col gap-5">
        <TextField
          label={form.newPassword}
          type="password"
          autoComplete="new-password"
          hint={form.passwordHint}
          error={errors.password?.message}
          {...register("password")}
        />
        <TextField
          label={form.confirmPassword}
          type="password"
          autoComplete="new-password"
          error={errors.confirm?.message}
          {...register("confirm")}
        />
        {errors.root?.server ? (
          <FormAlert>
            <p>{errors.root.server.message}</p>
            {linkInvalid ? (
              <Link to={paths.passwordReset} className="link mt-1 inline-block font-semibold">
                {form.requestNewLink}
              </Link>
            ) : null}
          </FormAlert>
        ) : null}
        <SubmitButton pending={reset.isPending}>{form.savePassword}</SubmitButton>
      </form>
      <BackToLogin />
    </AuthCard>
  );
}

/** /passwordReset: without a token asks for the mail; with `?token=` (the mailed link) sets the password. */
export function PasswordResetPage() {
  const [params] = useSearchParams();
  const token = params.get("token");
  return token ? <SetPasswordForm key={token} token={token} /> : <ResetRequestForm />;
}
