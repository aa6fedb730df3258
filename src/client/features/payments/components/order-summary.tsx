import { paymentMessages } from "../../../../shared/messages/payments.js";
import type { Order } from "../../../../shared/orders.js";
import { CardSection } from "../../../components/card-section.js";
import { ProductImage } from "../../../components/product-image.js";
import { formatCount, formatPrice } from "../../../lib/format.js";

const text = paymentMessages.page;

/** The order being paid for, shown beside the card form (docs/product.md, Pages). */
export function OrderSummary({ order }: { order: Order }) {
  const rows: [string, string][] = [
    [text.product, order.productName],
    [text.customer, `${order.name} (${order.email})`],
    [text.quantity, text.units(formatCount(order.quantity))],
    [text.total, formatPrice(order.totalPrice)],
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
      <dl className="grid grid-cols-[auto_1fr] gap-x-6 gap-y-2">
        {rows.map(([label, value]) => (
          <div key={label} className="contents">
            <dt className="text-base-content/75">{label}</dt>
            <dd className="break-words font-medium">{value}</dd>
          </div>
        ))}
      </dl>
    </CardSection>
  );
}
