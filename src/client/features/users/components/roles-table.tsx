import { useId } from "react";
import { toast } from "sonner";
import { messages } from "../../../../shared/messages.js";
import type { User } from "../../../../shared/users.js";
import { TableRegion } from "../../../components/table-region.js";
import { useSession } from "../../../lib/auth.js";
import { problemMessage } from "../../../lib/form-errors.js";
import { useSetUserRole } from "../api/set-user-role.js";

const text = messages.admin.users;

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
      <table className="table">
        <caption id={captionId} className="px-4 pt-4 text-left text-lg font-semibold">
          {text.rolesCaption}
        </caption>
        <thead>
          <tr>
            <th scope="col">{messages.admin.serial}</th>
            <th scope="col">{text.name}</th>
            <th scope="col">{text.email}</th>
            <th scope="col">{text.role}</th>
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
            users.map((user, index) => {
              const pending = setRole.isPending && setRole.variables?.id === user.id;
              const isAdmin = user.role === "admin";
              return (
                <tr key={user.id}>
                  <th scope="row">{index + 1}</th>
                  <td className="font-medium">
                    {user.name}
                    {user.id === me?.id ? (
                      <span className="ml-1 text-base-content/75">{messages.admin.you}</span>
                    ) : null}
                  </td>
                  <td className="break-all">{user.email}</td>
                  <td>
                    <span className={`badge ${isAdmin ? "badge-secondary badge-soft" : "badge-outline"}`}>
                      {text.roles[user.role]}
                    </span>
                  </td>
                  <td>
                    <button
                      type="button"
                      className={`btn btn-sm whitespace-nowrap ${isAdmin ? "btn-warning btn-outline" : "btn-primary"}`}
                      aria-label={isAdmin ? text.removeAdminFor(user.name) : text.makeAdminFor(user.name)}
                      disabled={pending}
                      onClick={() => change(user)}
                    >
                      {pending ? (
                        <span className="loading loading-spinner loading-xs" aria-hidden="true" />
                      ) : null}
                      {isAdmin ? text.removeAdmin : text.makeAdmin}
                    </button>
                  </td>
                </tr>
              );
            })
          )}
        </tbody>
      </table>
    </TableRegion>
  );
}
