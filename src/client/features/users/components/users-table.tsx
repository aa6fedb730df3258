import { useId } from "react";
import { messages } from "../../../../shared/messages.js";
import type { User } from "../../../../shared/users.js";
import { ConfirmDialog } from "../../../components/confirm-dialog.js";
import { DataTable } from "../../../components/data-table.js";
import { TableRegion } from "../../../components/table-region.js";
import { useSession } from "../../../lib/auth.js";
import { useConfirmedRemoval } from "../../../lib/use-confirmed-removal.js";
import { useDeleteUser } from "../api/delete-user.js";
import { UserName } from "./user-name.js";

const text = messages.admin.users;
const COLUMNS = [
  messages.admin.serial,
  text.name,
  text.email,
  text.phone,
  { label: text.action, hidden: true },
] as const;

/** All users with a Remove per row; Remove asks first, and the server refuses self and last-admin removal. */
export function UsersTable({ users }: { users: User[] }) {
  const { user: me } = useSession();
  const removal = useConfirmedRemoval<User>(useDeleteUser(), messages.users.deleted);
  const target = removal.target;
  const captionId = useId();

  return (
    <>
      <TableRegion labelledBy={captionId} ref={removal.regionRef}>
        <DataTable
          caption={text.caption}
          captionId={captionId}
          columns={COLUMNS}
          rows={users}
          empty={text.none}
        >
          {(user, index) => (
            <tr key={user.id}>
              <th scope="row">{index + 1}</th>
              <td className="font-medium">
                <UserName name={user.name} isMe={user.id === me?.id} />
              </td>
              <td className="break-all">{user.email}</td>
              <td className="whitespace-nowrap">{user.phone}</td>
              <td>
                <button
                  type="button"
                  className="btn btn-sm btn-error btn-outline"
                  aria-label={text.removeFor(user.name)}
                  onClick={() => removal.ask(user)}
                >
                  {text.remove}
                </button>
              </td>
            </tr>
          )}
        </DataTable>
      </TableRegion>
      <ConfirmDialog
        {...removal.dialog}
        title={text.confirmTitle}
        text={target ? text.confirmText(target.name, target.email) : undefined}
        confirmLabel={text.remove}
        cancelLabel={messages.admin.cancel}
      />
    </>
  );
}
