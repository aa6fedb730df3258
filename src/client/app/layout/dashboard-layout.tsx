import { useEffect } from "react";
import { NavLink, Outlet, useNavigate } from "react-router";
import { activityMessages } from "../../../shared/messages/activity.js";
import { catalogCsvMessages } from "../../../shared/messages/catalog-csv.js";
import { dashboardMessages } from "../../../shared/messages/dashboard.js";
import { discountMessages } from "../../../shared/messages/discounts.js";
import { reviewMessages } from "../../../shared/messages/reviews.js";
import { stockNoticeMessages } from "../../../shared/messages/stock-notices.js";
import { RequireAuth } from "../../components/require-auth.js";
import { StepUpDialog } from "../../components/step-up-dialog.js";
import { secondFactorHandlers } from "../../lib/api.js";
import { useSession } from "../../lib/auth.js";
import { paths } from "../../lib/paths.js";

const text = dashboardMessages;

type Item = { to: string; label: string; end?: boolean };

const USER_ITEMS: readonly Item[] = [
  { to: paths.dashboard.root, label: text.myOrders, end: true },
  { to: paths.dashboard.addReview, label: text.addReview },
];

// The product's (docs/product.md) four admin entries, after the overview Gearhouse adds for an admin's arrival.
const ADMIN_ITEMS: readonly Item[] = [
  { to: paths.dashboard.adminOverview, label: text.adminOverview },
  { to: paths.dashboard.users, label: text.users },
  { to: paths.dashboard.manageOrders, label: text.manageOrders },
  { to: paths.dashboard.addProduct, label: text.addProduct },
  { to: paths.dashboard.admin, label: text.makeAdmin },
];

const EVERYONE_ITEMS: readonly Item[] = [{ to: paths.dashboard.myProfile, label: text.myProfile }];

// Pages Gearhouse adds (issue 31), after the spec's menu, so its entries keep their order.
const USER_EXTRAS: readonly Item[] = [
  { to: paths.dashboard.stockNotices, label: stockNoticeMessages.list.title },
];
const ADMIN_EXTRAS: readonly Item[] = [
  { to: paths.dashboard.importProducts, label: catalogCsvMessages.import.title },
  { to: paths.dashboard.reviewModeration, label: reviewMessages.moderation.title },
  { to: paths.dashboard.discountCodes, label: discountMessages.heading },
  { to: paths.dashboard.taxSettings, label: discountMessages.tax.heading },
  { to: paths.dashboard.activity, label: activityMessages.heading },
];

function Sidebar() {
  const { user } = useSession();
  const admin = user?.role === "admin";
  const items = [
    ...(admin ? ADMIN_ITEMS : USER_ITEMS),
    ...EVERYONE_ITEMS,
    ...(admin ? ADMIN_EXTRAS : USER_EXTRAS),
  ];
  return (
    <nav aria-label={text.menu} className="lg:sticky lg:top-24 lg:h-fit">
      <p className="px-4 text-sm font-semibold uppercase tracking-wider text-base-content/80">{text.title}</p>
      <ul className="menu menu-horizontal mt-2 w-full gap-1 lg:menu-vertical">
        {items.map((item) => (
          <li key={item.to}>
            <NavLink
              to={item.to}
              end={item.end}
              className={({ isActive }) => (isActive ? "menu-active font-semibold" : "text-base-content/85")}
            >
              {item.label}
            </NavLink>
          </li>
        ))}
      </ul>
    </nav>
  );
}

/**
 * An admin without the second factor the shop requires is sent to enrolment, in My Profile, by
 * whichever admin request the server refuses first (lib/api.ts).
 */
function useEnrolmentRedirect() {
  const navigate = useNavigate();
  useEffect(() => {
    secondFactorHandlers.enrol = () => void navigate(`${paths.dashboard.myProfile}?secondFactor=required`);
    return () => {
      secondFactorHandlers.enrol = null;
    };
  }, [navigate]);
}

/** The signed-in area: a role-dependent menu beside the current dashboard page. */
export function DashboardLayout() {
  useEnrolmentRedirect();
  return (
    <RequireAuth>
      <StepUpDialog />
      <div className="mx-auto grid max-w-7xl gap-8 px-4 py-10 sm:px-6 lg:grid-cols-[15rem_1fr]">
        <aside className="rounded-box border border-base-content/10 bg-base-200 py-4">
          <Sidebar />
        </aside>
        <div className="min-w-0">
          <Outlet />
        </div>
      </div>
    </RequireAuth>
  );
}
