import { dashboardMessages } from "../../../../shared/messages/dashboard.js";
import { AdminLoadError } from "../../../components/admin-only.js";
import { DashboardHeading } from "../../../components/dashboard-heading.js";
import { Spinner } from "../../../components/spinner.js";
import { useOverview } from "../api/get-overview.js";
import { OverviewCards } from "../components/overview-cards.js";

/** /dashboard/adminmakingPage (admin): what needs attention, each figure linking to its page. */
export function AdminOverviewPage() {
  const overview = useOverview();
  return (
    <>
      <DashboardHeading title={dashboardMessages.adminOverview} lead={dashboardMessages.adminOverviewLead} />
      {overview.isPending ? (
        <Spinner />
      ) : overview.isError ? (
        <AdminLoadError error={overview.error} onRetry={() => void overview.refetch()} />
      ) : (
        <OverviewCards overview={overview.data} />
      )}
    </>
  );
}
