/** Booking an order, My Orders, and the order lists' filters and pages. */
import { MAX_UPLOAD_MEGABYTES, MIN_ORDER_QUANTITY } from "../constants.js";

export const orderMessages = {
  minimum: `Order minimum ${MIN_ORDER_QUANTITY} units`,
  outOfStock: "Out of stock",
  removed: "Order is is removed",
  confirmDelete: "Are you sure to delete this order?",
  addressRequired: "Address is required",
  imageInvalid: "The image must be one uploaded to the shop.",
  notFound: "This order does not exist.",
  productMissing: "This product does not exist.",
  /** Booking a product an admin archived (410). */
  productArchived: "This product is no longer sold, so it cannot be ordered.",
  alreadyPaid: "This order is paid and cannot be removed.",
  idempotencyMismatch: "This Idempotency-Key was already used for a different order.",
  notPaid: "This order is not paid yet.",
  totalTooLarge: (max: string) =>
    `One order can total at most ${max}, the most a card payment can take. Order fewer units, or split them over several orders.`,
  booked: "Your order is booked. Pay for it from My Orders in your dashboard.",
  /** The booked toast's action: straight on to the order's payment page. */
  payNow: "Pay now",
  /** The order's own number (shared/format.ts orderNumber), beside My Orders' serial, on the payment page and the papers. */
  number: "Order number",
  emailNotVerified:
    "Please verify your email address before booking: open the link we sent to your email, or ask for a new one.",
  /** Verifying the email, on the product page, the booking form and My Orders (docs/product.md). */
  verify: {
    title: "Verify your email to book",
    text: (email: string) =>
      `Before you can book, open the link we sent to ${email}. It brings you back to this page. No mail? Check your spam folder, or ask for a new link.`,
    resend: "Resend the link",
    sent: (email: string) => `A new link is on its way to ${email}. It works for one hour.`,
    verified: "Your email is verified. You can book now.",
    linkFailed: "This verification link is invalid or has expired. Ask for a new one below.",
  },
  /** Booking limits (docs/product.md, "Booking limits"). */
  limits: {
    accountRateLimited: (perHour: number, minutes: number) =>
      `You can book at most ${perHour} orders an hour. Please try again in ${minutes} ${minutes === 1 ? "minute" : "minutes"}.`,
    addressRateLimited: (perHour: number, minutes: number) =>
      `At most ${perHour} orders an hour can be booked from your network address. Please try again in ${minutes} ${minutes === 1 ? "minute" : "minutes"}.`,
    overShare: (percent: number, most: number, held: number) =>
      `One customer can hold at most ${percent}% of a product's stock unpaid (${most} units of this one now), and you hold ${held} already. Pay for or remove your unpaid orders of it, or order fewer units.`,
    addressOverShare: (percent: number, most: number) =>
      `At most ${percent}% of a product's stock (${most} units of this one now) can be held by orders booked from one network address. Please order fewer units or try again later.`,
  },
  imageFailed: (reason: string) => `Your image could not be uploaded, so no order was sent. ${reason}`,
  form: {
    title: "Book this part",
    lead: `Order from ${MIN_ORDER_QUANTITY} units up to the available stock. You pay by card from your dashboard.`,
    name: "Name",
    email: "Email",
    quantity: "Quantity",
    quantityHint: (stock: string) => `From ${MIN_ORDER_QUANTITY} to ${stock} units`,
    address: "Address",
    phone: "Contact number",
    image: "Image (optional)",
    imageHint: `JPEG, PNG, WebP or GIF up to ${MAX_UPLOAD_MEGABYTES} MB. Without one, the order shows the product's image.`,
    book: "Book",
    total: (amount: string) => `Total: ${amount}`,
    soldOut: "This part is sold out for now. Check back after the next restock.",
  },
  table: {
    caption: "Your orders",
    serial: "#",
    image: "Image",
    product: "Product",
    quantity: "Quantity",
    total: "Total price",
    phone: "Contact number",
    payment: "Payment",
    status: "Status",
    action: "Remove / transaction id",
    pay: "Pay",
    payFor: (product: string) => `Pay for ${product}`,
    paid: "Paid",
    shipped: "Shipped",
    remove: "Remove",
    removeFor: (product: string) => `Remove the order for ${product}`,
    /** Under the spec's "Are you sure to delete this order?": which order, and what removing it does. */
    confirmText: (quantity: string, product: string) =>
      `${quantity} × ${product}. Its units go back on sale, and nothing is charged.`,
    /** The dialog's own button and its way out. */
    confirmRemove: "Remove",
    keep: "Cancel",
    invoice: "Invoice",
    /** The invoice link's name: which order, by its own number ("#1A2B3C4D") and its product. */
    invoiceFor: (number: string, product: string) => `Invoice for order ${number} (${product})`,
    creditNote: "Credit note",
    /** The credit note link's name (a refunded order), as the invoice link's. */
    creditNoteFor: (number: string, product: string) => `Credit note for order ${number} (${product})`,
    empty: "You have no orders yet.",
    browse: "Browse products",
    imageAlt: (product: string) => `Image of the order for ${product}`,
  },
  /**
   * An order's status in words (My Orders, Manage Orders, the charts), and its dates. An unpaid
   * order is "Not Paid" wherever its state is named: the spec's word (Manage Orders), one word for
   * one state (issue 34).
   */
  status: {
    pending: "Not Paid",
    paid: "Paid",
    shipped: "Shipped",
    refunded: "Refunded",
    expired: "Expired",
  },
  dates: {
    placed: (when: string) => `Placed ${when}`,
    paid: (when: string) => `Paid ${when}`,
    shipped: (when: string) => `Shipped ${when}`,
    refunded: (when: string) => `Refunded ${when}`,
    expired: (when: string) => `Expired ${when}`,
    /** The hold's time left: `left` such as "23 hours 5 minutes", `deadline` a date and time. */
    payWithin: (left: string, deadline: string) =>
      `Pay within ${left} (by ${deadline}) or the units go back to stock.`,
    tracking: (carrier: string, number: string) => `${carrier} tracking number ${number}`,
    carrierOnly: (carrier: string) => `Sent with ${carrier}`,
    /** The `left` of payWithin: whole hours and minutes, the minutes rounded up. */
    left: (hours: number, minutes: number) =>
      [
        hours > 0 ? `${hours} ${hours === 1 ? "hour" : "hours"}` : "",
        minutes > 0 || hours === 0 ? `${minutes} ${minutes === 1 ? "minute" : "minutes"}` : "",
      ]
        .filter(Boolean)
        .join(" "),
    /** The deadline passed on the customer's clock; the shop expires the order in a moment. */
    holdEnded:
      "The time to pay has run out, so this order can no longer be paid. Its units go back to stock.",
  },
  /** Why an order cannot take an action in its state (409), and what to do instead. */
  lifecycle: {
    expired:
      "This order expired: its hold ran out and its units went back to stock. Book it again to buy them.",
    refunded: "This order was refunded.",
    notPaidForShipping: "This order is not paid yet, so it cannot be shipped.",
    shippedNoRefund: "This order has shipped, so it cannot be refunded here.",
    notPaidForRefund: "This order is not paid, so there is nothing to refund. Remove it instead.",
    alreadyShipped: "This order has already shipped.",
    paidNoExpiry: "This order is paid, so its hold no longer runs out.",
    /** `max`: ORDER_MAX_UNPAID. */
    tooManyUnpaid: (max: number) =>
      `You already have ${max} unpaid orders, the most one customer can hold. Pay for one or remove one in My Orders, then book again.`,
    /** `max`: ORDER_MAX_UNPAID_UNITS as text; `held`: the units the customer's unpaid orders hold. */
    tooManyUnits: (max: string, held: string) =>
      `Your unpaid orders already hold ${held} units, and one customer can hold at most ${max}. Pay for or remove an order in My Orders, or book fewer units.`,
  },
  /** Shipping with a carrier and tracking number (Manage Orders). */
  ship: {
    title: "Ship this order",
    lead: (product: string, name: string) =>
      `${product} for ${name}. The customer sees the carrier and the tracking number in My Orders.`,
    carrier: "Carrier (optional)",
    trackingNumber: "Tracking number (optional)",
    confirm: "Ship",
    cancel: "Cancel",
    carrierTooLong: "The carrier's name is too long.",
    trackingTooLong: "The tracking number is too long.",
    trackingInvalid: "A tracking number has letters, digits, spaces and dashes only.",
    carrierRequired: "Name the carrier of this tracking number.",
  },
  /** Refunding a paid order in full (Manage Orders). */
  refund: {
    action: "Refund",
    actionFor: (product: string, name: string) => `Refund the order of ${product} by ${name}`,
    title: "Refund this order?",
    confirm: (amount: string) =>
      `Refund ${amount} to the customer's card? The order becomes refunded and its units go back to stock.`,
    confirmButton: "Refund",
    cancel: "Cancel",
    done: "The order is refunded.",
    failed: "The card payment provider did not take the refund. Nothing changed; try again.",
  },
  /** The order lists' filters and pages (GET /api/orders, /api/orders/mine, the CSV export). */
  list: {
    /** `run`: ORDER_SEARCH_MIN_RUN (src/shared/orders.ts). */
    searchTooShort: (run: number) =>
      `Search with at least ${run} letters or digits in a row (A to Z, 0 to 9), or with a whole order id or transaction id.`,
    statusInvalid: "Status takes pending, paid, shipped, refunded or expired, several separated by commas.",
    dateInvalid: "Give a date such as 2026-01-31, or a date and time with its offset.",
    rangeReversed: "The end of the date range must come after its start.",
    /** The list's match count: exact, or "more than" past the counting limit. */
    count: (n: number, exact: boolean) =>
      `${exact ? "" : "More than "}${n.toLocaleString("en-US")} ${exact && n === 1 ? "order" : "orders"}`,
    pages: "Pages of orders",
    previous: "Previous page",
    next: "Next page",
  },
} as const;
