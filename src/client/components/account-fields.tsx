import type { ComponentProps } from "react";
import type { UseFormRegisterReturn } from "react-hook-form";
import { accountMessages } from "../../shared/messages/accounts.js";
import { TextField } from "./text-field.js";

// The fields of a person's account and contact details, each with the input type, keyboard and
// autofill hint that suit it, wherever a form asks for them (sign-up, sign-in, profile, booking).

type Props = Omit<ComponentProps<typeof TextField>, "type" | "inputMode" | "autoComplete">;

export function NameField(props: Props) {
  return <TextField autoComplete="name" {...props} />;
}

export function EmailField(props: Props) {
  return <TextField type="email" inputMode="email" autoComplete="email" {...props} />;
}

/** The account's password; `isNew` when it is being chosen, so the browser may offer one and save it. */
export function PasswordField({ isNew = false, ...props }: Props & { isNew?: boolean }) {
  return <TextField type="password" autoComplete={isNew ? "new-password" : "current-password"} {...props} />;
}

type NewPasswordProps = {
  password: UseFormRegisterReturn;
  confirm: UseFormRegisterReturn;
  errors: { password?: { message?: string }; confirm?: { message?: string } };
};

/** A password being chosen and the same typed again, with the spec's labels and rules hint. */
export function NewPasswordFields({ password, confirm, errors }: NewPasswordProps) {
  const form = accountMessages.form;
  return (
    <>
      <PasswordField
        label={form.newPassword}
        isNew
        hint={form.passwordHint}
        error={errors.password?.message}
        {...password}
      />
      <PasswordField label={form.confirmPassword} isNew error={errors.confirm?.message} {...confirm} />
    </>
  );
}

export function PhoneField(props: Props) {
  return <TextField type="tel" inputMode="tel" autoComplete="tel" {...props} />;
}

export function AddressField(props: Props) {
  return <TextField autoComplete="street-address" {...props} />;
}
