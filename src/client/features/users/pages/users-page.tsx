import { messages } from "../../../../shared/messages.js";
import { DashboardHeading } from "../../../components/dashboard-heading.js";
import { UserDirectory } from "../components/user-directory.js";
import { UsersTable } from "../components/users-table.js";

/** /dashboard/users (admin): All users, a page at a time, with Remove. */
export function UsersPage() {
  return (
    <>
      <DashboardHeading title={messages.dashboard.users} lead={messages.dashboard.usersLead} />
      <UserDirectory>{(rows) => <UsersTable {...rows} />}</UserDirectory>
    </>
  );
}
