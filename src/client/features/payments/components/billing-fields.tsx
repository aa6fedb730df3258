import { paymentMessages } from "../../../../shared/messages/payments.js";
import { TextField } from "../../../components/text-field.js";

const text = paymentMessages.page;

/** Who pays, from the account, sent with the card; shown read-only so the customer sees it. */
export function BillingFields({ billing }: { billing: { name: string; email: string } }) {
  return (
    <div className="grid gap-4 sm:grid-cols-2">
      <TextField label={text.name} value={billing.name} readOnly autoComplete="cc-name" />
      <TextField label={text.email} value={billing.email} readOnly type="email" autoComplete="email" />
    </div>
  );
}
