import { userMessages } from "../../../../shared/messages/users.js";
import type { User } from "../../../../shared/users.js";
import { RemovalDialog, RemoveButton } from "../../../components/removal.js";
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

  return (
    <>
      <UserList
        {...rows}
        caption={text.caption}
        fields={FIELDS}
        ref={removal.regionRef}
        action={(user) => (
          <RemoveButton
            label={text.remove}
            name={text.removeFor(user.name)}
            onClick={() => removal.ask(user)}
          />
        )}
      />
      <RemovalDialog
        removal={removal}
        title={text.confirmTitle}
        explain={(user) => text.confirmText(user.name, user.email)}
        confirmLabel={text.remove}
      />
    </>
  );
}
