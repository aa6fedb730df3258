import { useState } from "react";
import { toast } from "sonner";
import { userMessages } from "../../../../shared/messages/users.js";
import type { User } from "../../../../shared/users.js";
import { ConfirmDialog } from "../../../components/confirm-dialog.js";
import { PendingButton } from "../../../components/pending-button.js";
import { problemMessage } from "../../../lib/form-errors.js";
import { useSetUserRole } from "../api/set-user-role.js";
import { EMAIL_FIELD, type UserField, UserList, type UserRows } from "./user-list.js";

const text = userMessages;
const FIELDS: readonly UserField[] = [
  EMAIL_FIELD,
  {
    label: text.role,
    cell: (user) => (
      <span className={`badge ${user.role === "admin" ? "badge-secondary badge-soft" : "badge-outline"}`}>
        {text.roles[user.role]}
      </span>
    ),
  },
];

/**
 * A page of users with their role and Make Admin or Remove Admin; Make Admin asks first, since the
 * role opens everything. The server keeps at least one admin.
 */
export function RolesTable(rows: UserRows) {
  const setRole = useSetUserRole();
  const [asking, setAsking] = useState<User | null>(null);

  const change = (user: User) => {
    const role = user.role === "admin" ? "user" : "admin";
    return setRole.mutateAsync({ id: user.id, role }).then(
      () => toast.success(role === "admin" ? userMessages.madeAdmin : userMessages.removedAdmin),
      (error: unknown) => toast.error(problemMessage(error)),
    );
  };

  return (
    <>
      <UserList
        {...rows}
        caption={text.rolesCaption}
        fields={FIELDS}
        action={(user) => {
          const isAdmin = user.role === "admin";
          return (
            <PendingButton
              className={`btn btn-sm whitespace-nowrap ${isAdmin ? "btn-warning btn-outline" : "btn-primary"}`}
              aria-label={isAdmin ? text.removeAdminFor(user.name) : text.makeAdminFor(user.name)}
              pending={setRole.isPending && setRole.variables?.id === user.id}
              spinner="xs"
              onClick={() => (isAdmin ? void change(user) : setAsking(user))}
            >
              {isAdmin ? text.removeAdmin : text.makeAdmin}
            </PendingButton>
          );
        }}
      />
      <ConfirmDialog
        open={asking !== null}
        title={asking ? text.makeAdminTitle(asking.name) : ""}
        text={asking ? text.makeAdminText(asking.email) : undefined}
        confirmLabel={text.makeAdmin}
        cancelLabel={text.cancel}
        pending={setRole.isPending}
        onConfirm={() => {
          if (asking) void change(asking).then(() => setAsking(null));
        }}
        onClose={() => setAsking(null)}
      />
    </>
  );
}
