import { accountMessages } from "../../../../shared/messages/accounts.js";

/** Separates the email form from the Google button. */
export function OrDivider() {
  return <div className="divider my-0 text-sm text-base-content/75">{accountMessages.form.or}</div>;
}
