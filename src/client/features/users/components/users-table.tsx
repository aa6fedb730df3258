import { toast } from "sonner";
import { sessionMessages } from "../../../../shared/messages/sessions.js";
import { userMessages } from "../../../../shared/messages/users.js";
import type { User } from "../../../../shared/users.js";
import { PendingButton } from "../../../components/pending-button.js";
import { RemovalDialog, RemoveButton } from "../../../components/removal.js";
import { useSession } from "../../../lib/auth.js";
import { problemMessage } from "../../../lib/form-errors.js";
import { useConfirmedRemoval } from "../../../lib/use-confirmed-removal.js";
import { useDeleteUser } from "../api/delete-user.js";
import { useEndUserSessions } from "../api/end-user-sessions.js";
import { EMAIL_FIELD, type UserField, UserList, type UserRows } from "./user-list.js";

const text = userMessages;
const FIELDS: readonly UserField[] = [
  EMAIL_FIELD,
  { label: text.phone, cell: (user) => user.phone, className: "whitespace-nowrap" },
];

/** Ends every session of the row's user: they are signed out everywhere at their next request. */
function EndSessionsButton({ user }: { user: User }) {
  const end = useEndUserSessions();
  return (
    <PendingButton
      className="btn btn-sm btn-outline"
      aria-label={sessionMessages.endUserSessionsNamed(user.email)}
      pending={end.isPending && end.variables === user.id}
      spinner="xs"
      onClick={() =>
        end.mutate(user.id, {
          onSuccess: ({ ended }) => toast.success(sessionMessages.endedUser(ended)),
          onError: (error) => toast.error(problemMessage(error)),
        })
      }
    >
      {sessionMessages.endUserSessions}
    </PendingButton>
  );
}

/**
 * A page of users with End sessions and Remove per row; Remove asks first, the admin's own row has
 * none (the server refuses self-removal), and the server refuses last-admin removal.
 */
export function UsersTable(rows: UserRows) {
  const removal = useConfirmedRemoval<User>(useDeleteUser(), userMessages.deleted);
  const { user: me } = useSession();

  return (
    <>
      <UserList
        {...rows}
        caption={text.caption}
        fields={FIELDS}
        ref={removal.regionRef}
        action={(user) => (
          <div className="flex flex-wrap gap-2">
            <EndSessionsButton user={user} />
            {user.id === me?.id ? null : (
              <RemoveButton
                label={text.remove}
                name={text.removeFor(user.name)}
                onClick={() => removal.ask(user)}
              />
            )}
          </div>
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
