import { useId } from "react";
import { toast } from "sonner";
import { messages } from "../../../../shared/messages.js";
import type { User } from "../../../../shared/users.js";
import { DataTable } from "../../../components/data-table.js";
import { PendingButton } from "../../../components/pending-button.js";
import { TableRegion } from "../../../components/table-region.js";
import { useSession } from "../../../lib/auth.js";
import { problemMessage } from "../../../lib/form-errors.js";
import { useSetUserRole } from "../api/set-user-role.js";
import { UserName } from "./user-name.js";

const text = messages.admin.users;
const COLUMNS = [
  messages.admin.serial,
  text.name,
  text.email,
  text.role,
  { label: text.action, hidden: true },
] as const;

/** The users with their role and Make Admin or Remove Admin; the server keeps at least one admin. */
export function RolesTable({ users }: { users: User[] }) {
  const { user: me } = useSession();
  const setRole = useSetUserRole();
  const captionId = useId();

  const change = (user: User) => {
    const role = user.role === "admin" ? "user" : "admin";
    setRole.mutate(
      { id: user.id, role },
      {
        onSuccess: () =>
          toast.success(role === "admin" ? messages.users.madeAdmin : messages.users.removedAdmin),
        onError: (error) => toast.error(problemMessage(error)),
      },
    );
  };

  return (
    <TableRegion labelledBy={captionId}>
      <DataTable
        caption={text.rolesCaption}
        captionId={captionId}
        columns={COLUMNS}
        rows={users}
        empty={text.none}
      >
        {(user, index) => {
          const isAdmin = user.role === "admin";
          return (
            <tr key={user.id}>
              <th scope="row">{index + 1}</th>
              <td className="font-medium">
                <UserName name={user.name} isMe={user.id === me?.id} />
              </td>
              <td className="break-all">{user.email}</td>
              <td>
                <span className={`badge ${isAdmin ? "badge-secondary badge-soft" : "badge-outline"}`}>
                  {text.roles[user.role]}
                </span>
              </td>
              <td>
                <PendingButton
                  className={`btn btn-sm whitespace-nowrap ${isAdmin ? "btn-warning btn-outline" : "btn-primary"}`}
                  aria-label={isAdmin ? text.removeAdminFor(user.name) : text.makeAdminFor(user.name)}
                  pending={setRole.isPending && setRole.variables?.id === user.id}
                  spinner="xs"
                  onClick={() => change(user)}
                >
                  {isAdmin ? text.removeAdmin : text.makeAdmin}
                </PendingButton>
              </td>
            </tr>
          );
        }}
      </DataTable>
    </TableRegion>
  );
}
