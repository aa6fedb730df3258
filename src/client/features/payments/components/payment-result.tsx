import { paymentMessages } from "../../../../shared/messages/payments.js";

/** The product's (docs/product.md) success message, in green, with the transaction id. */
export function PaymentSuccess({ transactionId }: { transactionId: string }) {
  return (
    <div role="status" className="flex flex-col gap-1 text-success">
      <p className="text-lg font-semibold">{paymentMessages.success}</p>
      <p className="break-all">{paymentMessages.transactionId(transactionId)}</p>
    </div>
  );
}

/** A card error: the provider's message in red under the form. */
export function PaymentError({ message }: { message: string | undefined }) {
  return (
    <p role="alert" className="min-h-6 text-error">
      {message ?? ""}
    </p>
  );
}
