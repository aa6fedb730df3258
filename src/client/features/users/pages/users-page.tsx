import { messages } from "../../../../shared/messages.js";
import { AdminLoadError } from "../../../components/admin-only.js";
import { Spinner } from "../../../components/spinner.js";
import { DashboardHeading } from "../../dashboard/components/dashboard-heading.js";
import { useUsers } from "../api/get-users.js";
import { UsersTable } from "../components/users-table.js";

/** /dashboard/users (admin): All users, with Remove. */
export function UsersPage() {
  const users = useUsers();
  return (
    <>
      <DashboardHeading title={messages.dashboard.users} lead={messages.dashboard.usersLead} />
      {users.isPending ? (
        <Spinner />
      ) : users.isError ? (
        <AdminLoadError error={users.error} onRetry={() => void users.refetch()} />
      ) : (
        <UsersTable users={users.data} />
      )}
    </>
  );
}
