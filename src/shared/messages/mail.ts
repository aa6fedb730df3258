/** The order mails (server/features/mail): subjects, lines and link texts. */

const dollars = (n: number) => `$${n.toLocaleString("en-US")}`;

export const mailMessages = {
  shop: "Gearhouse",
  greeting: (name: string) => `Hello ${name},`,
  signature: "Thank you for shopping at Gearhouse.",
  footer: "You get this mail because you ordered at Gearhouse. Your orders are in",
  myOrders: "My Orders",
  order: {
    heading: "Your order",
    product: "Product",
    quantity: "Quantity",
    unitPrice: "Unit price",
    total: "Total",
    number: (serial: string) => `Order ${serial}`,
    dollars,
  },
  placed: {
    subject: (product: string, number: string) => `Your Gearhouse order ${number} of ${product} is booked`,
    preview: "Your order is booked. Pay for it before its hold ends.",
    lead: "Your order is booked and its units are held for you.",
    deadline: (when: string) => `Pay by ${when} (UTC): after that the hold ends and the order expires.`,
    pay: "Pay for your order",
  },
  reminder: {
    subject: (product: string, number: string) =>
      `Your Gearhouse order ${number} of ${product} is still unpaid`,
    preview: "Its hold ends soon.",
    lead: "Your order is not paid yet, and its hold ends soon.",
    deadline: (when: string) => `Pay by ${when} (UTC), or the order expires and its units go back on sale.`,
    pay: "Pay for your order",
  },
  receipt: {
    subject: (product: string, number: string) => `Receipt for your Gearhouse order ${number} of ${product}`,
    preview: "Your payment is received. Your invoice is attached.",
    lead: "Your payment is received. Thank you!",
    paidAt: (when: string) => `Paid on ${when} (UTC)`,
    transaction: (id: string) => `Transaction ${id}`,
    invoice: (number: string) =>
      `Your invoice ${number} is attached as a PDF; you can also download it from My Orders.`,
    noInvoice: "You can download your invoice from My Orders.",
  },
  shipped: {
    subject: (product: string, number: string) => `Your Gearhouse order ${number} of ${product} has shipped`,
    preview: "Your order is on its way.",
    lead: "Your order is on its way.",
    carrier: (carrier: string) => `Carrier: ${carrier}`,
    tracking: (number: string) => `Tracking number: ${number}`,
    /** Before the number when it links to the carrier's tracking page. */
    trackingLabel: "Tracking number:",
    noTracking: "The shop gave no tracking details for this shipment.",
  },
  refunded: {
    subject: (product: string, number: string) => `Your Gearhouse order ${number} of ${product} is refunded`,
    preview: "Your payment is refunded.",
    lead: (amount: string) =>
      `Your payment of ${amount} is refunded to the card you paid with. Banks take a few days to show it.`,
    creditNote: (number: string) =>
      `Credit note ${number}, attached as a PDF, cancels this order's invoice for your records. You can also download it from My Orders.`,
  },
  expired: {
    subject: (product: string, number: string) => `Your Gearhouse order ${number} of ${product} has expired`,
    preview: "It was not paid in time.",
    lead: "Your order was not paid before its hold ended, so it has expired and its units are back on sale. Nothing was charged.",
    again: "Order again",
  },
  backInStock: {
    subject: (product: string) => `${product} is back in stock at Gearhouse`,
    preview: "The part you asked about can be ordered again.",
    lead: (product: string) => `${product} is back in stock, as you asked us to tell you.`,
    stock: (units: number) => `${units.toLocaleString("en-US")} units are in stock as we write.`,
    view: "See the product",
    footer:
      "You get this mail because you asked to be told when this product is back. This was the only one.",
    unsubscribe: "Unsubscribe",
  },
};
