import { Link } from "react-router";
import { creditNotePath } from "../../../../shared/credit-notes.js";
import { orderNumber } from "../../../../shared/format.js";
import { invoicePath } from "../../../../shared/invoices.js";
import { dashboardMessages } from "../../../../shared/messages/dashboard.js";
import { orderMessages } from "../../../../shared/messages/orders.js";
import { pricingMessages } from "../../../../shared/messages/pricing.js";
import type { Order, OrderStatus as Status } from "../../../../shared/orders.js";
import { LIST_PAGE_SIZE } from "../../../../shared/paging.js";
import { ConfirmDialog } from "../../../components/confirm-dialog.js";
import { CursorPager } from "../../../components/cursor-pager.js";
import { DashboardHeading } from "../../../components/dashboard-heading.js";
import { LoadingState } from "../../../components/loading-state.js";
import { OrderTotal } from "../../../components/order-amounts.js";
import { OrderDates, OrderStatusBadge, OrderTracking } from "../../../components/order-lifecycle.js";
import { OrderNumber } from "../../../components/order-number.js";
import { OrderThumbnail, orderCardHead } from "../../../components/order-thumbnail.js";
import { PayDeadline } from "../../../components/pay-deadline.js";
import { RemoveButton } from "../../../components/removal.js";
import { ListCard, ResponsiveList } from "../../../components/responsive-list.js";
import { VerifyEmailNotice } from "../../../components/verify-email-notice.js";
import { useSession } from "../../../lib/auth.js";
import { formatCount } from "../../../lib/format.js";
import { paths } from "../../../lib/paths.js";
import { useRemoveOrder } from "../../../lib/remove-order.js";
import { useConfirmedRemoval } from "../../../lib/use-confirmed-removal.js";
import { useMinutesLeft } from "../../../lib/use-minutes-left.js";
import { useFocusOnNewPage, usePagePosition } from "../../../lib/use-page-position.js";
import { useMyOrders } from "../api/get-my-orders.js";

const text = orderMessages.table;
const COLUMNS = [
  text.serial,
  text.image,
  text.product,
  text.quantity,
  text.total,
  text.phone,
  text.status,
  text.action,
];

/**
 * What a customer can do with an order now: pay and remove an unpaid one until its hold runs out
 * (on this clock: the shop expires it a moment later), nothing with an expired or refunded one.
 * Remove asks first (`onRemove` opens the page's confirm dialog), as Manage Orders does.
 */
function useOrderActions(order: Order, ask: (order: Order) => void) {
  const minutesLeft = useMinutesLeft(order.status === "pending" ? order.expiresAt : null);
  const open = order.status === "pending" && minutesLeft !== 0;
  return { minutesLeft, open, onRemove: () => ask(order) };
}

type Actions = ReturnType<typeof useOrderActions>;

/** Orders that were paid have an invoice (issued at payment, kept through shipping and refund). */
const INVOICED: ReadonlySet<Status> = new Set(["paid", "shipped", "refunded"]);

/** A plain download: the browser saves the PDF under the name the shop gives it. */
function PdfLink({ href, label, name }: { href: string; label: string; name: string }) {
  return (
    <a href={href} download className="btn btn-sm btn-outline mt-1" aria-label={name}>
      {label}
    </a>
  );
}

/**
 * The status in words, the order's dates, its tracking number, for an unpaid one the time left and
 * Pay, and for a paid one its invoice to download (and its credit note once refunded).
 */
function OrderStatus({ order, actions }: { order: Order; actions: Actions }) {
  return (
    <div className="flex flex-col items-start gap-1.5">
      <OrderStatusBadge status={order.status} />
      <OrderDates order={order} className="text-sm text-base-content/80" />
      <OrderTracking order={order} className="text-sm" />
      {order.status === "pending" && order.expiresAt && actions.minutesLeft !== null ? (
        <PayDeadline expiresAt={order.expiresAt} minutesLeft={actions.minutesLeft} className="text-sm" />
      ) : null}
      {actions.open ? (
        <Link
          to={paths.dashboard.payment(order.id)}
          className="btn btn-sm btn-primary mt-1"
          aria-label={text.payFor(order.productName)}
        >
          {text.pay}
        </Link>
      ) : null}
      {INVOICED.has(order.status) ? (
        <PdfLink
          href={invoicePath(order.id)}
          label={text.invoice}
          name={text.invoiceFor(orderNumber(order.id), order.productName)}
        />
      ) : null}
      {order.creditNoteNumber !== null ? (
        // A refunded order's credit note, beside its invoice.
        <PdfLink
          href={creditNotePath(order.id)}
          label={text.creditNote}
          name={text.creditNoteFor(orderNumber(order.id), order.productName)}
        />
      ) : null}
    </div>
  );
}

/** Remove for an unpaid order, the transaction id of one that was paid. */
function OrderAction({ order, actions }: { order: Order; actions: Actions }) {
  if (actions.open)
    return (
      <RemoveButton label={text.remove} name={text.removeFor(order.productName)} onClick={actions.onRemove} />
    );
  return order.transactionId ? <code className="break-all text-xs">{order.transactionId}</code> : null;
}

type OrderProps = { order: Order; serial: number };
/** Opens the confirm dialog of a row's Remove. */
type AskProps = { ask: (order: Order) => void };

/** What the customer pays (the gross), and its amounts under it when there is a discount or tax. */
function Total({ order, serial }: OrderProps) {
  return <OrderTotal order={order} label={pricingMessages.amounts.detailsFor(serial, order.productName)} />;
}

function OrderRow({ order, serial, ask }: OrderProps & AskProps) {
  const actions = useOrderActions(order, ask);
  return (
    <tr>
      <th scope="row">{serial}</th>
      <td>
        <OrderThumbnail src={order.img} alt={text.imageAlt(order.productName)} />
      </td>
      <td>
        {/* The order's own number under its product, as in Manage Orders: the serial only counts rows. */}
        <span className="block font-medium">{order.productName}</span>
        <OrderNumber id={order.id} label={orderMessages.number} />
      </td>
      <td>{formatCount(order.quantity)}</td>
      <td>
        <Total order={order} serial={serial} />
      </td>
      <td>{order.phone}</td>
      <td>
        <OrderStatus order={order} actions={actions} />
      </td>
      <td>
        <OrderAction order={order} actions={actions} />
      </td>
    </tr>
  );
}

/** Narrow screens: the same order as a card, every field and action in view. */
function OrderCard({ order, serial, headingId, ask }: OrderProps & AskProps & { headingId: string }) {
  const actions = useOrderActions(order, ask);
  return (
    <ListCard
      headingId={headingId}
      serialLabel={text.serial}
      serial={serial}
      {...orderCardHead(order, text.imageAlt)}
      details={[
        {
          label: orderMessages.number,
          value: <span className="font-mono text-xs">{orderNumber(order.id)}</span>,
        },
        { label: text.quantity, value: formatCount(order.quantity) },
        { label: text.total, value: <Total order={order} serial={serial} /> },
        { label: text.phone, value: order.phone },
      ]}
      footer={<OrderAction order={order} actions={actions} />}
    >
      <OrderStatus order={order} actions={actions} />
    </ListCard>
  );
}

/** /dashboard: the customer's own orders (docs/product.md, Pages: My Orders), a page at a time. */
export function MyOrdersPage() {
  const { user } = useSession();
  const position = usePagePosition();
  const orders = useMyOrders(position);
  // Remove asks with the spec's "Are you sure to delete this order?" first; focus then goes to the list.
  const removal = useConfirmedRemoval<Order>(useRemoveOrder(), orderMessages.removed);
  const regionRef = removal.regionRef;
  useFocusOnNewPage(regionRef, position, !orders.isPlaceholderData);
  const page = orders.data;
  const steps = page ? position.steps(page) : undefined;
  return (
    <>
      <DashboardHeading title={dashboardMessages.myOrders} lead={dashboardMessages.myOrdersLead} />
      {user && !user.emailVerified ? (
        <div className="mb-6">
          <VerifyEmailNotice email={user.email} />
        </div>
      ) : null}
      {!orders.isSuccess ? (
        <LoadingState query={orders} />
      ) : orders.data.items.length === 0 || !steps ? (
        <div className="flex flex-col items-start gap-4 rounded-box border border-base-content/10 bg-base-200 p-8">
          <p>{text.empty}</p>
          <Link to={paths.tools} className="btn btn-primary">
            {text.browse}
          </Link>
        </div>
      ) : (
        <div aria-busy={orders.isPlaceholderData || undefined}>
          <p role="status" className="mb-3 font-medium">
            {orderMessages.list.count(orders.data.total.count, orders.data.total.exact)}
          </p>
          <ResponsiveList
            caption={text.caption}
            hideCaption
            columns={COLUMNS}
            items={orders.data.items}
            first={(steps.number - 1) * LIST_PAGE_SIZE + 1}
            row={(order, serial) => (
              <OrderRow key={order.id} order={order} serial={serial} ask={removal.ask} />
            )}
            card={(order, serial, headingId) => (
              <OrderCard order={order} serial={serial} headingId={headingId} ask={removal.ask} />
            )}
            ref={regionRef}
          />
          <CursorPager texts={orderMessages.list} steps={steps} />
        </div>
      )}
      <ConfirmDialog
        {...removal.dialog}
        title={orderMessages.confirmDelete}
        text={
          removal.target
            ? text.confirmText(formatCount(removal.target.quantity), removal.target.productName)
            : undefined
        }
        confirmLabel={text.confirmRemove}
        cancelLabel={text.keep}
      />
    </>
  );
}
