import { CardElement, Elements, useElements, useStripe } from "@stripe/react-stripe-js";
import { loadStripe, type Stripe } from "@stripe/stripe-js";
import { type FormEvent, useEffect, useState } from "react";
import { paymentMessages } from "../../../../shared/messages/payments.js";
import { useCardPayment } from "../hooks/use-card-payment.js";
import { BillingFields } from "./billing-fields.js";
import { PayButton } from "./pay-button.js";
import { PaymentError } from "./payment-result.js";
import type { CardFormProps } from "./sandbox-card-form.js";

const text = paymentMessages.page;
const stripeByKey = new Map<string, Promise<Stripe | null>>();

/** Stripe.js is loaded once per publishable key, and only on the payment page. */
function stripeFor(publishableKey: string): Promise<Stripe | null> {
  let stripe = stripeByKey.get(publishableKey);
  if (!stripe) {
    // A blocked or offline js.stripe.com resolves to null instead of leaving the page hanging.
    stripe = loadStripe(publishableKey).catch(() => null);
    stripeByKey.set(publishableKey, stripe);
  }
  return stripe;
}

function CardForm({ clientSecret, billing, amountLabel, onConfirmed, onFailed }: CardFormProps) {
  const stripe = useStripe();
  const elements = useElements();
  const { error, paying, pay, refuse } = useCardPayment(onFailed);
  const [cardReady, setCardReady] = useState(false);
  const ready = Boolean(stripe && elements && clientSecret && cardReady);

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    const card = elements?.getElement(CardElement);
    if (!stripe || !card || !clientSecret || paying) return;
    await pay(async () => {
      const result = await stripe.confirmCardPayment(clientSecret, {
        payment_method: { card, billing_details: billing },
      });
      if (result.error) refuse(result.error.message ?? paymentMessages.cardDeclined);
      else await onConfirmed(result.paymentIntent.id);
    });
  }

  return (
    <form onSubmit={onSubmit} noValidate className="flex flex-col gap-4">
      <fieldset className="flex flex-col gap-1.5">
        <legend className="mb-1.5 text-sm font-medium">{text.cardNumber}</legend>
        <div className="input w-full items-center">
          <CardElement
            className="w-full"
            onReady={() => setCardReady(true)}
            options={{ hidePostalCode: true, style: { base: { color: "#e5e7eb", fontSize: "16px" } } }}
          />
        </div>
      </fieldset>
      <BillingFields billing={billing} />
      <PaymentError message={error} />
      <PayButton ready={ready} paying={paying} amountLabel={amountLabel} />
    </form>
  );
}

/** Stripe Elements' card field; Pay stays disabled until Stripe.js and the client secret are ready. */
export function StripeCardForm(props: CardFormProps & { publishableKey: string }) {
  const { publishableKey, ...form } = props;
  const stripe = stripeFor(publishableKey);
  const [unavailable, setUnavailable] = useState(false);
  useEffect(() => {
    let current = true;
    void stripe.then((loaded) => current && setUnavailable(loaded === null));
    return () => {
      current = false;
    };
  }, [stripe]);
  if (unavailable) return <PaymentError message={text.stripeUnavailable} />;
  return (
    <Elements stripe={stripe}>
      <CardForm {...form} />
    </Elements>
  );
}
