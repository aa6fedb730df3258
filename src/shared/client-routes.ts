/**
 * The paths the client's router draws a page for (src/client/app/router.tsx; a test there keeps
 * the two alike), so the server can answer any other path 404 while still sending the app, which
 * shows the spec's not-found page. `:name` stands for one non-empty path segment.
 */
export const CLIENT_ROUTE_PATTERNS = [
  "/",
  "/about",
  "/blogs",
  "/ique",
  "/login",
  "/registration",
  "/passwordReset",
  "/tools",
  "/tool/:id",
  "/stock-notices/unsubscribe",
  "/unsubscribe",
  "/confirm-email",
  "/business",
  "/reviews",
  "/video",
  "/footer",
  "/dashboard",
  "/dashboard/addReview",
  "/dashboard/users",
  "/dashboard/myProfile",
  "/dashboard/manageOrders",
  "/dashboard/addProduct",
  "/dashboard/admin",
  "/dashboard/payment/:id",
  "/dashboard/stock/:id",
  "/dashboard/adminmakingPage",
  "/dashboard/stockNotices",
  "/dashboard/importProducts",
  "/dashboard/reviewModeration",
  "/dashboard/activity",
  "/dashboard/discountCodes",
  "/dashboard/discountCodes/:id",
  "/dashboard/tax",
] as const;

const literal = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/**
 * One expression for every pattern, matched as React Router matches: letter case ignored, one
 * trailing slash allowed, a parameter one segment that is not empty.
 */
const matcher = new RegExp(
  `^(?:${CLIENT_ROUTE_PATTERNS.map((pattern) =>
    pattern
      .split("/")
      .map((segment) => (segment.startsWith(":") ? "[^/]+" : literal(segment)))
      .join("/"),
  ).join("|")})/?$`,
  "i",
);

/** Whether the client's router draws a page of its own (not the not-found page) for `pathname`. */
export function isClientRoute(pathname: string): boolean {
  return matcher.test(pathname);
}
