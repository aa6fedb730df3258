import { adminMessages } from "../../../../shared/messages/admin.js";
import { userMessages } from "../../../../shared/messages/users.js";
import type { User } from "../../../../shared/users.js";
import { ConfirmDialog } from "../../../components/confirm-dialog.js";
import { useConfirmedRemoval } from "../../../lib/use-confirmed-removal.js";
import { useDeleteUser } from "../api/delete-user.js";
import { EMAIL_FIELD, type UserField, UserList, type UserRows } from "./user-list.js";

const text = userMessages;
const FIELDS: readonly UserField[] = [
  EMAIL_FIELD,
  { label: text.phone, cell: (user) => user.phone, className: "whitespace-nowrap" },
];

/** A page of users with a Remove per row; Remove asks first, and the server refuses self and last-admin removal. */
export function UsersTable(rows: UserRows) {
  const removal = useConfirmedRemoval<User>(useDeleteUser(), userMessages.deleted);
  const target = removal.target;

  return (
    <>
      <UserList
        {...rows}
        caption={text.caption}
        fields={FIELDS}
        ref={removal.regionRef}
        action={(user) => (
          <button
            type="button"
            className="btn btn-sm btn-error btn-outline"
            aria-label={text.removeFor(user.name)}
            onClick={() => removal.ask(user)}
          >
            {text.remove}
          </button>
        )}
      />
      <ConfirmDialog
        {...removal.dialog}
        title={text.confirmTitle}
        text={target ? text.confirmText(target.name, target.email) : undefined}
        confirmLabel={text.remove}
        cancelLabel={adminMessages.cancel}
      />
    </>
  );
}
