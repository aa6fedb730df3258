import { messages } from "../../../../shared/messages.js";
import { AdminLoadError } from "../../../components/admin-only.js";
import { Spinner } from "../../../components/spinner.js";
import { DashboardHeading } from "../../dashboard/components/dashboard-heading.js";
import { useUsers } from "../api/get-users.js";
import { RolesTable } from "../components/roles-table.js";

/** /dashboard/admin (admin): Make Admin or Remove Admin per user. */
export function MakeAdminPage() {
  const users = useUsers();
  return (
    <>
      <DashboardHeading title={messages.dashboard.makeAdmin} lead={messages.dashboard.makeAdminLead} />
      {users.isPending ? (
        <Spinner />
      ) : users.isError ? (
        <AdminLoadError error={users.error} onRetry={() => void users.refetch()} />
      ) : (
        <RolesTable users={users.data} />
      )}
    </>
  );
}
