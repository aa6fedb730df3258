import { useId, useRef, useState } from "react";
import { toast } from "sonner";
import { messages } from "../../../../shared/messages.js";
import type { User } from "../../../../shared/users.js";
import { ConfirmDialog } from "../../../components/confirm-dialog.js";
import { TableRegion } from "../../../components/table-region.js";
import { useSession } from "../../../lib/auth.js";
import { problemMessage } from "../../../lib/form-errors.js";
import { useDeleteUser } from "../api/delete-user.js";

const text = messages.admin.users;

/** All users with a Remove per row; Remove asks first, and the server refuses self and last-admin removal. */
export function UsersTable({ users }: { users: User[] }) {
  const { user: me } = useSession();
  const remove = useDeleteUser();
  const [target, setTarget] = useState<User | null>(null);
  const captionId = useId();
  const regionRef = useRef<HTMLElement>(null);
  // Set once a removal succeeds: the row that had focus is gone, so focus goes to the table.
  const refocus = useRef(false);

  const confirm = () => {
    if (!target) return;
    remove.mutate(target.id, {
      onSuccess: () => {
        toast.success(messages.users.deleted);
        refocus.current = true;
        setTarget(null);
      },
      onError: (error) => {
        toast.error(problemMessage(error));
        setTarget(null);
      },
    });
  };

  const onClose = () => {
    setTarget(null);
    if (refocus.current) {
      refocus.current = false;
      regionRef.current?.focus();
    }
  };

  return (
    <>
      <TableRegion labelledBy={captionId} ref={regionRef}>
        <table className="table">
          <caption id={captionId} className="px-4 pt-4 text-left text-lg font-semibold">
            {text.caption}
          </caption>
          <thead>
            <tr>
              <th scope="col">{messages.admin.serial}</th>
              <th scope="col">{text.name}</th>
              <th scope="col">{text.email}</th>
              <th scope="col">{text.phone}</th>
              <th scope="col">
                <span className="sr-only">{text.action}</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {users.length === 0 ? (
              <tr>
                <td colSpan={5} className="text-base-content/75">
                  {text.none}
                </td>
              </tr>
            ) : (
              users.map((user, index) => (
                <tr key={user.id}>
                  <th scope="row">{index + 1}</th>
                  <td className="font-medium">
                    {user.name}
                    {user.id === me?.id ? (
                      <span className="ml-1 text-base-content/75">{messages.admin.you}</span>
                    ) : null}
                  </td>
                  <td className="break-all">{user.email}</td>
                  <td className="whitespace-nowrap">{user.phone}</td>
                  <td>
                    <button
                      type="button"
                      className="btn btn-sm btn-error btn-outline"
                      aria-label={text.removeFor(user.name)}
                      onClick={() => setTarget(user)}
                    >
                      {text.remove}
                    </button>
                  </td>
                </tr>
              ))
            )}
          </tbody>
        </table>
      </TableRegion>
      <ConfirmDialog
        open={target !== null}
        title={text.confirmTitle}
        text={target ? text.confirmText(target.name, target.email) : undefined}
        confirmLabel={text.remove}
        cancelLabel={messages.admin.cancel}
        pending={remove.isPending}
        onConfirm={confirm}
        onClose={onClose}
      />
    </>
  );
}
