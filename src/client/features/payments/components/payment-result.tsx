import { Link } from "react-router";
import { orderNumber } from "../../../../shared/format.js";
import { invoicePath } from "../../../../shared/invoices.js";
import { paymentMessages } from "../../../../shared/messages/payments.js";
import { paths } from "../../../lib/paths.js";

const text = paymentMessages.page;

/**
 * The product's (docs/product.md) success message, in green, with the transaction id; then the
 * ways on: the order in My Orders and its invoice (issued as the order became paid).
 */
export function PaymentSuccess({ transactionId, orderId }: { transactionId: string; orderId: string }) {
  const number = orderNumber(orderId);
  return (
    <div className="flex flex-col gap-3">
      <div role="status" className="flex flex-col gap-1 text-success">
        <p className="text-lg font-semibold">{paymentMessages.success}</p>
        <p className="break-all">{paymentMessages.transactionId(transactionId)}</p>
      </div>
      <div className="flex flex-wrap gap-2">
        <Link to={paths.dashboard.root} className="btn btn-sm btn-primary">
          {text.seeOrder(number)}
        </Link>
        {/* A plain download, as My Orders' Invoice: the browser saves the PDF under the shop's name. */}
        <a href={invoicePath(orderId)} download className="btn btn-sm btn-outline">
          {text.invoice(number)}
        </a>
      </div>
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
