import { dashboardMessages } from "../../../../shared/messages/dashboard.js";
import { DashboardHeading } from "../../../components/dashboard-heading.js";
import { RolesTable } from "../components/roles-table.js";
import { UserDirectory } from "../components/user-directory.js";

/** /dashboard/admin (admin): Make Admin or Remove Admin per user, a page at a time. */
export function MakeAdminPage() {
  return (
    <>
      <DashboardHeading title={dashboardMessages.makeAdmin} lead={dashboardMessages.makeAdminLead} />
      <UserDirectory>{(rows) => <RolesTable {...rows} />}</UserDirectory>
    </>
  );
}
