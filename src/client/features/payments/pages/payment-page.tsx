import { lazy, type ReactNode, Suspense, useEffect, useState } from "react";
import { Link, useParams } from "react-router";
import { dashboardMessages } from "../../../../shared/messages/dashboard.js";
import { orderMessages } from "../../../../shared/messages/orders.js";
import { paymentMessages } from "../../../../shared/messages/payments.js";
import { orderTotal } from "../../../../shared/order-amounts.js";
import { CardSection } from "../../../components/card-section.js";
import { DashboardHeading } from "../../../components/dashboard-heading.js";
import { LoadError } from "../../../components/load-error.js";
import { PayDeadline } from "../../../components/pay-deadline.js";
import { Spinner } from "../../../components/spinner.js";
import { ApiError } from "../../../lib/api.js";
import { useSession } from "../../../lib/auth.js";
import { paths } from "../../../lib/paths.js";
import { useMinutesLeft } from "../../../lib/use-minutes-left.js";
import { usePaymentIntent } from "../api/create-payment-intent.js";
import { useOrder } from "../api/get-order.js";
import { usePayOrder } from "../api/pay-order.js";
import { OrderSummary } from "../components/order-summary.js";
import { PaymentError, PaymentSuccess } from "../components/payment-result.js";
import { SandboxCardForm } from "../components/sandbox-card-form.js";
import { paymentPanel, refusalOf } from "../utils/payment-panel.js";

// Stripe.js and Elements load only when the shop pays through Stripe.
const StripeCardForm = lazy(async () => ({
  default: (await import("../components/stripe-card-form.js")).StripeCardForm,
}));

const text = paymentMessages.page;

/** /dashboard/payment/:id: the order beside the card form (docs/product.md, Pages). */
export function PaymentPage() {
  const { id = "" } = useParams();
  const { user } = useSession();
  const order = useOrder(id);
  const pending = order.data?.status === "pending";
  const minutesLeft = useMinutesLeft(pending ? (order.data?.expiresAt ?? null) : null);
  // Payable until the hold runs out on this clock; the shop expires the order a moment later.
  const payable = pending && minutesLeft !== 0;
  const intent = usePaymentIntent(id, payable);
  const pay = usePayOrder();
  const [paidNow, setPaidNow] = useState<string>();
  // The shop's refusal of the payment (409: the order expired meanwhile), kept once the form goes.
  const [refused, setRefused] = useState<string>();
  const refetchOrder = order.refetch;

  // 409: the provider already took the money (say, a tab closed before the shop heard of it) and
  // the server has now recorded it, so the order shows as paid once reloaded.
  useEffect(() => {
    if (refusalOf(intent.error)) void refetchOrder();
  }, [intent.error, refetchOrder]);

  const heading = <DashboardHeading title={dashboardMessages.payment} lead={dashboardMessages.paymentLead} />;
  if (order.isPending)
    return (
      <>
        {heading}
        <Spinner />
      </>
    );
  if (order.isError) {
    const missing = order.error instanceof ApiError && [400, 404].includes(order.error.status);
    return (
      <>
        {heading}
        {missing ? (
          <div className="flex flex-col items-start gap-4">
            <p role="alert">{orderMessages.notFound}</p>
            <Link to={paths.dashboard.root} className="btn btn-primary">
              {text.backToOrders}
            </Link>
          </div>
        ) : (
          <LoadError error={order.error} onRetry={() => void order.refetch()} />
        )}
      </>
    );
  }

  const current = order.data;
  const billing = { name: user?.name ?? current.name, email: user?.email ?? current.email };
  const onConfirmed = async (transactionId: string) => {
    await pay.mutateAsync({ orderId: current.id, transactionId });
    setPaidNow(transactionId);
  };
  // 409 from the provider's confirmation or the shop's: the order expired (or was removed or paid)
  // meanwhile. Its message stays in view, with the order as it is now.
  const onFailed = (failure: unknown) => {
    const refusal = refusalOf(failure);
    if (!refusal) return;
    setRefused(refusal);
    void refetchOrder();
  };
  const formProps = {
    clientSecret: intent.data?.clientSecret,
    billing,
    // What the card is charged: the order's gross (net + tax), as booked.
    amountLabel: orderTotal(current),
    onConfirmed,
    onFailed,
  };

  const panel = paymentPanel({ order: current, payable, paidNow, refused, intent });
  let payment: ReactNode;
  switch (panel.kind) {
    case "paidNow":
      payment = <PaymentSuccess transactionId={panel.transactionId} orderId={current.id} />;
      break;
    case "closed":
      payment = (
        <div className="flex flex-col gap-3">
          {panel.refusal ? <PaymentError message={panel.refusal} /> : null}
          <p role="status" className="font-semibold">
            {panel.state}
          </p>
        </div>
      );
      break;
    case "paidAlready":
      payment = (
        <div role="status" className="flex flex-col gap-1">
          <p className="text-lg font-semibold text-success">{text.paidAlready}</p>
          {panel.transactionId ? (
            <p className="break-all">{paymentMessages.transactionId(panel.transactionId)}</p>
          ) : null}
        </div>
      );
      break;
    case "intentFailed":
      payment = <PaymentError message={panel.message} />;
      break;
    case "preparing":
      payment = <Spinner label={text.preparing} />;
      break;
    case "stripe":
      payment = (
        <Suspense fallback={<Spinner label={text.preparing} />}>
          <StripeCardForm {...formProps} publishableKey={panel.publishableKey} />
        </Suspense>
      );
      break;
    case "sandbox":
      payment = <SandboxCardForm {...formProps} />;
      break;
  }

  return (
    <>
      {heading}
      <div className="grid gap-8 lg:grid-cols-2">
        <OrderSummary order={current} />
        <CardSection id="card-title" title={text.cardTitle} spacing="roomy">
          {payable && current.expiresAt && minutesLeft !== null && !paidNow ? (
            <PayDeadline
              expiresAt={current.expiresAt}
              minutesLeft={minutesLeft}
              className="flex-none font-medium"
            />
          ) : null}
          {payment}
          {!payable || paidNow ? (
            <Link to={paths.dashboard.root} className="btn btn-outline self-start">
              {text.backToOrders}
            </Link>
          ) : null}
        </CardSection>
      </div>
    </>
  );
}
