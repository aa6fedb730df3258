import { MIN_ORDER_QUANTITY } from "../constants.js";

/** Back-in-stock subscriptions: the product page's offer, the dashboard's list, the unsubscribe page. */
export const stockNoticeMessages = {
  offer: `Fewer than ${MIN_ORDER_QUANTITY} units are in stock. We can email you when it is back.`,
  subscribe: "Email me when it is back",
  subscribed: "We will email you when it is back in stock.",
  cancel: "Stop the back-in-stock email",
  cancelled: "You will not get a back-in-stock email for this product.",
  signInToSubscribe: "Sign in to be emailed when it is back in stock.",
  inStock: `This product can be booked now (${MIN_ORDER_QUANTITY} units or more are in stock).`,
  productNotFound: "This product does not exist.",
  productArchived: "This product is no longer sold, so it will not be back in stock.",
  notFound: "This back-in-stock subscription does not exist or has ended.",
  badLink: "This unsubscribe link is not valid.",
  list: {
    title: "Back in stock",
    lead: "Products we will email you about when they are back in stock.",
    empty: "You have no back-in-stock subscriptions.",
    product: "Product",
    stock: "In stock",
    asked: "Asked on",
    ends: "Ends on",
    actions: "Actions",
    cancel: (product: string) => `Cancel the back-in-stock email for ${product}`,
    cancelShort: "Cancel",
    more: "Show more",
  },
  unsubscribe: {
    title: "Unsubscribe",
    lead: "Stop the back-in-stock email you asked for.",
    confirm: "Unsubscribe",
    done: "You are unsubscribed. You will not get this back-in-stock email.",
  },
} as const;
