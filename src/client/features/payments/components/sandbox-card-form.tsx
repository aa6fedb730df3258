import { type ChangeEvent, type FormEvent, useState } from "react";
import { paymentMessages } from "../../../../shared/messages/payments.js";
import { TextField } from "../../../components/text-field.js";
import { confirmSandboxPayment } from "../api/confirm-sandbox-payment.js";
import { useCardPayment } from "../hooks/use-card-payment.js";
import { BillingFields } from "./billing-fields.js";
import { PayButton } from "./pay-button.js";
import { PaymentError } from "./payment-result.js";

const text = paymentMessages.page;

export type CardFormProps = {
  clientSecret: string | undefined;
  billing: { name: string; email: string };
  amountLabel: string;
  /** Called with the provider's payment intent id once the card payment succeeded. */
  onConfirmed(transactionId: string): Promise<void>;
  /** Hears what the attempt threw: the shop's 409 for an order that can no longer be paid. */
  onFailed(failure: unknown): void;
};

type CardInput = "number" | "expiry" | "cvc";

/** The card's three inputs: their labels, the browser's autofill, an example and the longest entry. */
const CARD_INPUTS: Record<
  CardInput,
  { label: string; autoComplete: string; placeholder: string; maxLength: number }
> = {
  number: {
    label: text.cardNumber,
    autoComplete: "cc-number",
    placeholder: "4242 4242 4242 4242",
    maxLength: 23,
  },
  expiry: { label: text.expiry, autoComplete: "cc-exp", placeholder: "MM/YY", maxLength: 7 },
  cvc: { label: text.cvc, autoComplete: "cc-csc", placeholder: "123", maxLength: 4 },
};

/** MM/YY, MM/YYYY or MMYY; anything else becomes 0/0, which the provider refuses with its message. */
function parseExpiry(value: string): { expMonth: number; expYear: number } {
  const digits = value.replace(/\D/g, "");
  if (digits.length === 4)
    return { expMonth: Number(digits.slice(0, 2)), expYear: 2000 + Number(digits.slice(2)) };
  if (digits.length === 6) return { expMonth: Number(digits.slice(0, 2)), expYear: Number(digits.slice(2)) };
  return { expMonth: 0, expYear: 0 };
}

/**
 * The sandbox provider's card form. Whether a card is good is the provider's call: its message is
 * shown in red under the form, as a real provider's would be.
 */
export function SandboxCardForm({
  clientSecret,
  billing,
  amountLabel,
  onConfirmed,
  onFailed,
}: CardFormProps) {
  const [card, setCard] = useState<Record<CardInput, string>>({ number: "", expiry: "", cvc: "" });
  const { error, paying, pay } = useCardPayment(onFailed);

  const cardInput = (input: CardInput) => ({
    ...CARD_INPUTS[input],
    inputMode: "numeric" as const,
    value: card[input],
    onChange: (event: ChangeEvent<HTMLInputElement>) => {
      const value = event.currentTarget.value;
      setCard((typed) => ({ ...typed, [input]: value }));
    },
  });

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (!clientSecret || paying) return;
    await pay(async () => {
      const result = await confirmSandboxPayment({
        clientSecret,
        card: { number: card.number, ...parseExpiry(card.expiry), cvc: card.cvc },
        billing,
      });
      await onConfirmed(result.paymentIntent.id);
    });
  }

  return (
    <form onSubmit={onSubmit} noValidate className="flex flex-col gap-4">
      <TextField {...cardInput("number")} />
      <div className="grid grid-cols-2 gap-4">
        <TextField {...cardInput("expiry")} />
        <TextField {...cardInput("cvc")} />
      </div>
      <BillingFields billing={billing} />
      <PaymentError message={error} />
      <PayButton ready={Boolean(clientSecret)} paying={paying} amountLabel={amountLabel} />
      <p className="text-xs text-base-content/75">{text.sandboxNote}</p>
    </form>
  );
}
