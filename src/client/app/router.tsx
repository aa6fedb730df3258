import type { ComponentType } from "react";
import { Outlet, type RouteObject } from "react-router";
import { RequireAuth } from "../components/require-auth.js";
import { paths } from "../lib/paths.js";
import { RootFallback, RootLayout, type RouteHandle } from "./root-layout.js";
import { HomePage } from "./routes/home.js";
import { BusinessPage, FooterPage, ReviewsPage, VideoPage } from "./routes/home-sections.js";
import { NotFoundPage } from "./routes/not-found.js";
import { RouteError } from "./routes/route-error.js";

/* The home page and its sections ship with the first bundle; every other page is its own chunk. */

const accountPages = {
  login: () => import("../features/accounts/pages/login-page.js"),
  registration: () => import("../features/accounts/pages/registration-page.js"),
  passwordReset: () => import("../features/accounts/pages/password-reset-page.js"),
};
const contentPages = {
  about: () => import("../features/content/pages/about-page.js"),
  blogs: () => import("../features/content/pages/blogs-page.js"),
  ique: () => import("../features/content/pages/ique-page.js"),
};
// Admin pages are chunks of their own, so customers never download admin code.
const adminPages = {
  users: () => import("../features/users/pages/users-page.js"),
  makeAdmin: () => import("../features/users/pages/make-admin-page.js"),
  manageOrders: () => import("../features/admin/pages/manage-orders-page.js"),
  addProduct: () => import("../features/admin/pages/add-product-page.js"),
  overview: () => import("../features/admin/pages/admin-overview-page.js"),
  importProducts: () => import("../features/admin/pages/import-products-page.js"),
  stock: () => import("../features/stock/pages/stock-page.js"),
  activity: () => import("../features/activity/pages/activity-page.js"),
  reviewModeration: () => import("../features/reviews/pages/review-moderation-page.js"),
  discountCodes: () => import("../features/discounts/pages/discount-codes-page.js"),
  discountCode: () => import("../features/discounts/pages/discount-code-page.js"),
  taxSettings: () => import("../features/discounts/pages/tax-settings-page.js"),
};
const orderPages = {
  myOrders: () => import("../features/orders/pages/my-orders-page.js"),
  payment: () => import("../features/payments/pages/payment-page.js"),
};

const footerHandle: RouteHandle = { ownFooter: true };

/** A route's `lazy`: loads the page's chunk on the first visit and draws the component it exports as `name`. */
function page<Name extends string>(load: () => Promise<Record<Name, ComponentType>>, name: Name) {
  return async () => ({ Component: (await load())[name] });
}

/** Every page of the shop: the browser runs them (main.tsx), the build prerenders the public ones (prerender.tsx). */
export const routes: RouteObject[] = [
  {
    path: paths.home,
    element: <RootLayout />,
    errorElement: <RouteError />,
    HydrateFallback: RootFallback,
    children: [
      { index: true, element: <HomePage /> },
      { path: paths.about, lazy: page(contentPages.about, "AboutPage") },
      { path: paths.blogs, lazy: page(contentPages.blogs, "BlogsPage") },
      { path: paths.ique, lazy: page(contentPages.ique, "IquePage") },
      { path: paths.login, lazy: page(accountPages.login, "LoginPage") },
      { path: paths.registration, lazy: page(accountPages.registration, "RegistrationPage") },
      { path: paths.passwordReset, lazy: page(accountPages.passwordReset, "PasswordResetPage") },
      {
        path: paths.tools,
        lazy: page(() => import("../features/catalog/pages/products-page.js"), "ProductsPage"),
      },
      {
        path: "/tool/:id",
        element: (
          <RequireAuth>
            <Outlet />
          </RequireAuth>
        ),
        children: [{ index: true, lazy: page(() => import("./routes/product.js"), "ProductRoute") }],
      },
      {
        path: paths.unsubscribe,
        lazy: page(() => import("../features/stock-notices/pages/unsubscribe-page.js"), "UnsubscribePage"),
      },
      {
        path: paths.unsubscribeReminders,
        lazy: page(
          () => import("../features/profile/pages/unsubscribe-reminders-page.js"),
          "UnsubscribeRemindersPage",
        ),
      },
      {
        path: paths.confirmEmail,
        lazy: page(() => import("../features/profile/pages/confirm-email-page.js"), "ConfirmEmailPage"),
      },
      { path: paths.business, element: <BusinessPage /> },
      { path: paths.reviews, element: <ReviewsPage /> },
      { path: paths.video, element: <VideoPage /> },
      { path: paths.footer, element: <FooterPage />, handle: footerHandle },
      {
        path: paths.dashboard.root,
        lazy: page(() => import("./layout/dashboard-layout.js"), "DashboardLayout"),
        children: [
          { index: true, lazy: page(orderPages.myOrders, "MyOrdersPage") },
          {
            path: paths.dashboard.addReview,
            lazy: page(() => import("../features/reviews/pages/add-review-page.js"), "AddReviewPage"),
          },
          { path: paths.dashboard.users, lazy: page(adminPages.users, "UsersPage") },
          {
            path: paths.dashboard.myProfile,
            lazy: page(() => import("../features/profile/pages/profile-page.js"), "ProfilePage"),
          },
          { path: paths.dashboard.manageOrders, lazy: page(adminPages.manageOrders, "ManageOrdersPage") },
          { path: paths.dashboard.addProduct, lazy: page(adminPages.addProduct, "AddProductPage") },
          { path: paths.dashboard.admin, lazy: page(adminPages.makeAdmin, "MakeAdminPage") },
          { path: "/dashboard/payment/:id", lazy: page(orderPages.payment, "PaymentPage") },
          { path: "/dashboard/stock/:id", lazy: page(adminPages.stock, "StockPage") },
          { path: paths.dashboard.adminOverview, lazy: page(adminPages.overview, "AdminOverviewPage") },
          {
            path: paths.dashboard.stockNotices,
            lazy: page(
              () => import("../features/stock-notices/pages/stock-notices-page.js"),
              "StockNoticesPage",
            ),
          },
          {
            path: paths.dashboard.importProducts,
            lazy: page(adminPages.importProducts, "ImportProductsPage"),
          },
          {
            path: paths.dashboard.reviewModeration,
            lazy: page(adminPages.reviewModeration, "ReviewModerationPage"),
          },
          { path: paths.dashboard.activity, lazy: page(adminPages.activity, "ActivityPage") },
          { path: paths.dashboard.discountCodes, lazy: page(adminPages.discountCodes, "DiscountCodesPage") },
          { path: "/dashboard/discountCodes/:id", lazy: page(adminPages.discountCode, "DiscountCodePage") },
          { path: paths.dashboard.taxSettings, lazy: page(adminPages.taxSettings, "TaxSettingsPage") },
        ],
      },
      { path: "*", element: <NotFoundPage /> },
    ],
  },
];
