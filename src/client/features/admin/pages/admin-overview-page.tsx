import type { UseQueryResult } from "@tanstack/react-query";
import { lazy, Suspense, useEffect } from "react";
import type { AdminSales } from "../../../../shared/admin.js";
import { adminMessages } from "../../../../shared/messages/admin.js";
import { dashboardMessages } from "../../../../shared/messages/dashboard.js";
import { AdminLoadError } from "../../../components/admin-only.js";
import { DashboardHeading } from "../../../components/dashboard-heading.js";
import { Spinner } from "../../../components/spinner.js";
import { useOverview } from "../api/get-overview.js";
import { useSales } from "../api/get-sales.js";
import { OverviewCards } from "../components/overview-cards.js";

// The chart library comes with the charts, a chunk of its own: the page's first paint does not
// wait for it, and no other page downloads it. The page asks for it on arrival, beside the data.
const chartsModule = () => import("../components/sales-charts.js");
const SalesCharts = lazy(async () => ({ default: (await chartsModule()).SalesCharts }));

const loadingCharts = adminMessages.overview.charts.loading;

/** The charts below the cards. */
function Charts({ sales }: { sales: UseQueryResult<AdminSales> }) {
  if (sales.isPending) return <Spinner label={loadingCharts} />;
  if (sales.isError) return <AdminLoadError error={sales.error} onRetry={() => void sales.refetch()} />;
  return (
    <Suspense fallback={<Spinner label={loadingCharts} />}>
      <SalesCharts sales={sales.data} />
    </Suspense>
  );
}

/** /dashboard/adminmakingPage (admin): what needs attention, each figure linking to its page. */
export function AdminOverviewPage() {
  const overview = useOverview();
  // Asked for beside the overview's cards, not after them.
  const sales = useSales();
  useEffect(() => {
    void chartsModule();
  }, []);
  return (
    <>
      <DashboardHeading title={dashboardMessages.adminOverview} lead={dashboardMessages.adminOverviewLead} />
      {overview.isPending ? (
        <Spinner />
      ) : overview.isError ? (
        <AdminLoadError error={overview.error} onRetry={() => void overview.refetch()} />
      ) : (
        <div className="flex flex-col gap-8">
          <OverviewCards overview={overview.data} />
          <Charts sales={sales} />
        </div>
      )}
    </>
  );
}
