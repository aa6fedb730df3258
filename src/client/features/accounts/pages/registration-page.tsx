import { useNavigate, useSearchParams } from "react-router";
import { toast } from "sonner";
import { signUpSchema } from "../../../../shared/accounts.js";
import { accountMessages } from "../../../../shared/messages/accounts.js";
import { EmailField, NameField, PasswordField, PhoneField } from "../../../components/account-fields.js";
import { Form } from "../../../components/form.js";
import { bindFields, bindSubmit } from "../../../components/form-bindings.js";
import { SubmitButton } from "../../../components/submit-button.js";
import { showServerError } from "../../../lib/form-errors.js";
import { paths } from "../../../lib/paths.js";
import { useSchemaForm } from "../../../lib/use-schema-form.js";
import { useSignUp } from "../api/sign-up.js";
import { AuthCard } from "../components/auth-card.js";
import { OtherWaysIn } from "../components/other-ways-in.js";
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
  const signUpForm = useSchemaForm(signUpSchema, {
    defaultValues: { name: "", email: "", password: "", phone: "" },
  });
  const field = bindFields(signUpForm);

  // The verification link mailed at sign-up brings the customer back to the page they came from.
  const submit = bindSubmit(signUpForm, (values) =>
    signUp.mutate(
      { ...values, callbackURL: safeRedirect(redirect) },
      {
        onSuccess: ({ signedIn }) => {
          if (signedIn) return void navigate(paths.home, { replace: true });
          // The email already had an account: the server mailed its owner and signed no one in.
          toast.info(accountMessages.checkEmail);
          void navigate(withRedirect(paths.login, redirect), { replace: true });
        },
        onError: (error) =>
          showServerError(error, ["name", "email", "password", "phone"], signUpForm.setError),
      },
    ),
  );

  return (
    <AuthCard title={text.registration} lead={text.registrationLead}>
      <Form {...submit} actions={<SubmitButton pending={signUp.isPending}>{form.signUp}</SubmitButton>}>
        <NameField label={form.name} {...field("name")} />
        <EmailField label={form.email} {...field("email")} />
        <PasswordField label={form.password} isNew hint={form.passwordHint} {...field("password")} />
        <PhoneField label={form.phone} {...field("phone")} />
      </Form>
      <OtherWaysIn
        redirectTo={safeRedirect(redirect)}
        question={text.haveAccount}
        linkLabel={text.loginLink}
        linkTo={withRedirect(paths.login, redirect)}
      />
    </AuthCard>
  );
}
