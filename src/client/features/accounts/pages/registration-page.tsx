import { zodResolver } from "@hookform/resolvers/zod";
import { useForm } from "react-hook-form";
import { Link, useNavigate, useSearchParams } from "react-router";
import { toast } from "sonner";
import { type SignUpInput, signUpSchema } from "../../../../shared/accounts.js";
import { accountMessages } from "../../../../shared/messages/accounts.js";
import { FormAlert } from "../../../components/form-alert.js";
import { SubmitButton } from "../../../components/submit-button.js";
import { TextField } from "../../../components/text-field.js";
import { showServerError } from "../../../lib/form-errors.js";
import { paths } from "../../../lib/paths.js";
import { type SignUpValues, useSignUp } from "../api/sign-up.js";
import { AuthCard } from "../components/auth-card.js";
import { GoogleButton } from "../components/google-button.js";
import { OrDivider } from "../components/or-divider.js";
import { safeRedirect, withRedirect } from "../utils/redirect.js";

const text = accountMessages.pages;
const form = accountMessages.form;

/**
 * /registration: create an account (signed in at once), then the home page. The server answers a
 * known email the same way without signing in, so the session decides where the visitor goes.
 */
export function RegistrationPage() {
  const [params] = useSearchParams();
  const redirect = params.get("redirect");
  const navigate = useNavigate();
  const signUp = useSignUp();
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors },
  } = useForm<SignUpInput, unknown, SignUpValues>({
    resolver: zodResolver(signUpSchema),
    mode: "onSubmit",
    reValidateMode: "onChange",
    defaultValues: { name: "", email: "", password: "", phone: "" },
  });

  const onSubmit = handleSubmit((values) =>
    signUp.mutate(values, {
      onSuccess: ({ signedIn }) => {
        if (signedIn) return void navigate(paths.home, { replace: true });
        // The email already had an account: the server mailed its owner and signed no one in.
        toast.info(accountMessages.checkEmail);
        void navigate(withRedirect(paths.login, redirect), { replace: true });
      },
      onError: (error) => showServerError(error, ["name", "email", "password", "phone"], setError),
    }),
  );

  return (
    <AuthCard title={text.registration} lead={text.registrationLead}>
      <form onSubmit={onSubmit} noValidate className="flex flex-col gap-5">
        <TextField label={form.name} autoComplete="name" error={errors.name?.message} {...register("name")} />
        <TextField
          label={form.email}
          type="email"
          inputMode="email"
          autoComplete="email"
          error={errors.email?.message}
          {...register("email")}
        />
        <TextField
          label={form.password}
          type="password"
          autoComplete="new-password"
          hint={form.passwordHint}
          error={errors.password?.message}
          {...register("password")}
        />
        <TextField
          label={form.phone}
          type="tel"
          inputMode="tel"
          autoComplete="tel"
          error={errors.phone?.message}
          {...register("phone")}
        />
        {errors.root?.server ? <FormAlert>{errors.root.server.message}</FormAlert> : null}
        <SubmitButton pending={signUp.isPending}>{form.signUp}</SubmitButton>
      </form>
      <OrDivider />
      <GoogleButton redirectTo={safeRedirect(redirect)} />
      <p className="text-center text-sm text-base-content/80">
        {text.haveAccount}{" "}
        <Link to={withRedirect(paths.login, redirect)} className="link link-primary">
          {text.loginLink}
        </Link>
      </p>
    </AuthCard>
  );
}
