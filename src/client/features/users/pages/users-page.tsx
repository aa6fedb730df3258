import { dashboardMessages } from "../../../../shared/messages/dashboard.js";
import { DashboardHeading } from "../../../components/dashboard-heading.js";
import { UserDirectory } from "../components/user-directory.js";
import { UsersTable } from "../components/users-table.js";

/** /dashboard/users (admin): All users, a page at a time, with Remove. */
export function UsersPage() {
  return (
    <>
      <DashboardHeading title={dashboardMessages.users} lead={dashboardMessages.usersLead} />
      <UserDirectory>{(rows) => <UsersTable {...rows} />}</UserDirectory>
    </>
  );
}
