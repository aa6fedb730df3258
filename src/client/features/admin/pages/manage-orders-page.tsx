import { messages } from "../../../../shared/messages.js";
import { AdminLoadError } from "../../../components/admin-only.js";
import { Spinner } from "../../../components/spinner.js";
import { DashboardHeading } from "../../dashboard/components/dashboard-heading.js";
import { useAllOrders } from "../api/get-all-orders.js";
import { OrdersTable } from "../components/orders-table.js";

/** /dashboard/manageOrders (admin): every order, from payment to shipping. */
export function ManageOrdersPage() {
  const orders = useAllOrders();
  return (
    <>
      <DashboardHeading title={messages.dashboard.manageOrders} lead={messages.dashboard.manageOrdersLead} />
      {orders.isPending ? (
        <Spinner />
      ) : orders.isError ? (
        <AdminLoadError error={orders.error} onRetry={() => void orders.refetch()} />
      ) : (
        <OrdersTable orders={orders.data} />
      )}
    </>
  );
}
