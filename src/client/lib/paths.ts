/** Every route of the shop (docs/product.md, Pages), so links and the router agree. */
export const paths = {
  home: "/",
  about: "/about",
  blogs: "/blogs",
  login: "/login",
  registration: "/registration",
  passwordReset: "/passwordReset",
  tools: "/tools",
  tool: (id: string) => `/tool/${encodeURIComponent(id)}`,
  business: "/business",
  reviews: "/reviews",
  video: "/video",
  footer: "/footer",
  ique: "/ique",
  unsubscribe: "/stock-notices/unsubscribe",
  /** Turning reminder mails off from a mail's link (features/profile). */
  unsubscribeReminders: "/unsubscribe",
  /** The link mailed to a new address by Change email (`?token=…`). */
  confirmEmail: "/confirm-email",
  dashboard: {
    root: "/dashboard",
    addReview: "/dashboard/addReview",
    users: "/dashboard/users",
    myProfile: "/dashboard/myProfile",
    manageOrders: "/dashboard/manageOrders",
    addProduct: "/dashboard/addProduct",
    admin: "/dashboard/admin",
    payment: (id: string) => `/dashboard/payment/${encodeURIComponent(id)}`,
    adminOverview: "/dashboard/adminmakingPage",
    stockNotices: "/dashboard/stockNotices",
    importProducts: "/dashboard/importProducts",
    /** The activity log (admin); `query` filters it, as the links from an order, a user or a product do. */
    activity: "/dashboard/activity",
    /** Customers' reports of reviews and the hidden reviews (admin). */
    reviewModeration: "/dashboard/reviewModeration",
    /** A product's stock, adjustments, low-stock threshold and history (admin). */
    stock: (id: string) => `/dashboard/stock/${encodeURIComponent(id)}`,
    /** The discount codes and the form that makes one (admin). */
    discountCodes: "/dashboard/discountCodes",
    /** A discount code, its uses, and its End button (admin). */
    discountCode: (id: string) => `/dashboard/discountCodes/${encodeURIComponent(id)}`,
    /** The tax rate, whether prices include it, and the shop's tax ID (admin). */
    taxSettings: "/dashboard/tax",
  },
} as const;

/** The Activity page filtered to what names one user, order, product or discount code. */
export function activityOf(
  targetType: "user" | "order" | "product" | "discount_code",
  targetId: string,
): string {
  return `${paths.dashboard.activity}?${new URLSearchParams({ targetType, targetId })}`;
}

/** The login route that brings the visitor back to `from` (path + search) after signing in. */
export function loginPath(from: string): string {
  return `${paths.login}?redirect=${encodeURIComponent(from)}`;
}
