import { messages } from "../../../../shared/messages.js";

/** Separates the email form from the Google button. */
export function OrDivider() {
  return <div className="divider my-0 text-sm text-base-content/75">{messages.auth.form.or}</div>;
}
