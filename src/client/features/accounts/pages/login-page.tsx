import { zodResolver } from "@hookform/resolvers/zod";
import { useForm } from "react-hook-form";
import { Link, useNavigate, useSearchParams } from "react-router";
import { type SignInInput, signInSchema } from "../../../../shared/accounts.js";
import { accountMessages } from "../../../../shared/messages/accounts.js";
import { FormAlert } from "../../../components/form-alert.js";
import { SubmitButton } from "../../../components/submit-button.js";
import { TextField } from "../../../components/text-field.js";
import { showServerError } from "../../../lib/form-errors.js";
import { paths } from "../../../lib/paths.js";
import { type SignInValues, useSignIn } from "../api/sign-in.js";
import { AuthCard } from "../components/auth-card.js";
import { GoogleButton } from "../components/google-button.js";
import { OrDivider } from "../components/or-divider.js";
import { safeRedirect, withRedirect } from "../utils/redirect.js";

const text = accountMessages.pages;
const form = accountMessages.form;

/** The message for a Google sign-in that came back with `error=CODE`. */
function googleError(code: string | null): string | null {
  if (!code) return null;
  return code === "account_not_linked" ? accountMessages.googleNotLinked : accountMessages.googleFailed;
}

/** /login: email and password or Google, then back to the page the visitor came from. */
export function LoginPage() {
  const [params] = useSearchParams();
  const redirect = params.get("redirect");
  const target = safeRedirect(redirect);
  const returnedError = googleError(params.get("error"));
  const navigate = useNavigate();
  const signIn = useSignIn();
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors },
  } = useForm<SignInInput, unknown, SignInValues>({
    resolver: zodResolver(signInSchema),
    mode: "onSubmit",
    reValidateMode: "onChange",
    defaultValues: { email: "", password: "" },
  });

  const onSubmit = handleSubmit((values) =>
    signIn.mutate(values, {
      onSuccess: () => void navigate(target, { replace: true }),
      onError: (error) => showServerError(error, ["email", "password"], setError),
    }),
  );

  return (
    <AuthCard title={text.login} lead={text.loginLead}>
      {returnedError ? <FormAlert>{returnedError}</FormAlert> : null}
      <form onSubmit={onSubmit} noValidate className="flex flex-col gap-5">
        <TextField
          label={form.email}
          type="email"
          inputMode="email"
          autoComplete="email"
          error={errors.email?.message}
          {...register("email")}
        />
        <div className="flex flex-col gap-2">
          <TextField
            label={form.password}
            type="password"
            autoComplete="current-password"
            error={errors.password?.message}
            {...register("password")}
          />
          <Link to={paths.passwordReset} className="link link-primary self-end text-sm">
            {text.forgotPassword}
          </Link>
        </div>
        {errors.root?.server ? <FormAlert>{errors.root.server.message}</FormAlert> : null}
        <SubmitButton pending={signIn.isPending}>{form.signIn}</SubmitButton>
      </form>
      <OrDivider />
      <GoogleButton redirectTo={target} />
      <p className="text-center text-sm text-base-content/80">
        {text.noAccount}{" "}
        <Link to={withRedirect(paths.registration, redirect)} className="link link-primary">
          {text.createAccount}
        </Link>
      </p>
    </AuthCard>
  );
}
