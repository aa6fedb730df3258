import { messages } from "../../../../shared/messages.js";
import { DashboardHeading } from "../../../components/dashboard-heading.js";
import { RolesTable } from "../components/roles-table.js";
import { UserDirectory } from "../components/user-directory.js";

/** /dashboard/admin (admin): Make Admin or Remove Admin per user, a page at a time. */
export function MakeAdminPage() {
  return (
    <>
      <DashboardHeading title={messages.dashboard.makeAdmin} lead={messages.dashboard.makeAdminLead} />
      <UserDirectory>{(rows) => <RolesTable {...rows} />}</UserDirectory>
    </>
  );
}
