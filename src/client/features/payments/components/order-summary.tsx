import { orderNumber } from "../../../../shared/format.js";
import { orderMessages } from "../../../../shared/messages/orders.js";
import { paymentMessages } from "../../../../shared/messages/payments.js";
import { pricingMessages } from "../../../../shared/messages/pricing.js";
import { amountLines, companyLines, orderTotal } from "../../../../shared/order-amounts.js";
import type { Order } from "../../../../shared/orders.js";
import { CardSection } from "../../../components/card-section.js";
import { type Detail, DetailList } from "../../../components/detail-list.js";
import { AmountList } from "../../../components/order-amounts.js";
import { ProductImage } from "../../../components/product-image.js";
import { formatCount } from "../../../lib/format.js";

const text = paymentMessages.page;

/**
 * The order being paid for, shown beside the card form (docs/product.md, Pages): its total price is
 * what the card is charged (the gross), its amounts (subtotal, discount, net, tax) under it.
 */
export function OrderSummary({ order }: { order: Order }) {
  const company = companyLines(order);
  const lines = amountLines(order);
  const rows: Detail[] = [
    // The order's own number, as its mails and its invoice name it.
    [orderMessages.number, orderNumber(order.id)],
    [text.product, order.productName],
    [text.customer, `${order.name} (${order.email})`],
    ...(company.length ? [[pricingMessages.company.heading, company.join(", ")] as [string, string]] : []),
    [text.quantity, text.units(formatCount(order.quantity))],
    [
      text.total,
      <>
        {orderTotal(order)}
        {lines.length > 1 ? <AmountList lines={lines} className="mt-1 text-sm font-normal" /> : null}
      </>,
    ],
    [text.address, order.address],
    [text.phone, order.phone],
  ];
  return (
    <CardSection id="order-summary-title" title={text.detailTitle} spacing="roomy">
      <ProductImage
        src={order.img}
        alt={order.productName}
        loading="eager"
        whole={{ frame: "overflow-hidden rounded-box bg-base-300", inset: "p-4" }}
      />
      <DetailList
        rows={rows}
        className="grid grid-cols-[auto_1fr] gap-x-6 gap-y-2"
        labelClassName="text-base-content/75"
        valueClassName="break-words font-medium"
      />
    </CardSection>
  );
}
