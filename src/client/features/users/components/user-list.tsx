import { type ReactNode, type Ref, useId } from "react";
import { adminMessages } from "../../../../shared/messages/admin.js";
import { userMessages } from "../../../../shared/messages/users.js";
import type { User } from "../../../../shared/users.js";
import { DataTable } from "../../../components/data-table.js";
import { TableRegion } from "../../../components/table-region.js";
import { useSession } from "../../../lib/auth.js";
import { useMediaQuery } from "../../../lib/use-media-query.js";
import { UserName } from "./user-name.js";

const text = userMessages;

/** Wide enough for the table's columns; narrower, each user is a card. */
const WIDE = "(min-width: 48rem)";

/** A column of the list besides the serial, the name and the action. */
export type UserField = { label: string; cell: (user: User) => ReactNode; className?: string };

export const EMAIL_FIELD: UserField = {
  label: text.email,
  cell: (user) => user.email,
  className: "break-all",
};

/** One page of users as the server gave it. */
export type UserRows = {
  users: readonly User[];
  /** The serial of the first row: rows are numbered across pages. */
  first: number;
  /** Said in place of the rows when there are none. */
  empty: string;
};

type Props = UserRows & {
  caption: string;
  fields: readonly UserField[];
  /** The row's button, labelled with the user's name. */
  action: (user: User) => ReactNode;
  /** The list's focusable frame, for a page to move focus to once a row it pointed at is gone. */
  ref?: Ref<HTMLElement>;
};

/**
 * One page of users: a table on wide screens; on narrow ones a list of cards, so no column and no
 * button is cut off behind a sideways scroll.
 */
export function UserList({ caption, users, first, fields, empty, action, ref }: Props) {
  const wide = useMediaQuery(WIDE);
  const { user: me } = useSession();
  const captionId = useId();
  const name = (user: User) => <UserName name={user.name} isMe={user.id === me?.id} />;

  if (wide)
    return (
      <TableRegion labelledBy={captionId} ref={ref}>
        <DataTable
          caption={caption}
          captionId={captionId}
          columns={[
            adminMessages.serial,
            text.name,
            ...fields.map((f) => f.label),
            { label: text.action, hidden: true },
          ]}
          rows={users}
          empty={empty}
        >
          {(user, index) => (
            <tr key={user.id}>
              <th scope="row">{(first + index).toLocaleString("en-US")}</th>
              <td className="font-medium">{name(user)}</td>
              {fields.map((field) => (
                <td key={field.label} className={field.className}>
                  {field.cell(user)}
                </td>
              ))}
              <td>{action(user)}</td>
            </tr>
          )}
        </DataTable>
      </TableRegion>
    );

  return (
    <section
      ref={ref}
      aria-labelledby={captionId}
      // Focusable by script only, for the focus a removed row leaves behind.
      tabIndex={-1}
      className="rounded-box focus-visible:outline-2"
    >
      <h2 id={captionId} className="mb-3 text-lg font-semibold">
        {caption}
      </h2>
      {users.length === 0 ? <p className="text-base-content/75">{empty}</p> : null}
      <ul className="flex flex-col gap-3">
        {users.map((user, index) => (
          <li key={user.id} className="rounded-box border border-base-content/10 bg-base-200 p-4">
            <p className="flex items-baseline gap-2 font-semibold">
              <span className="text-sm text-base-content/75">
                <span className="sr-only">{adminMessages.serial}</span>
                {(first + index).toLocaleString("en-US")}
              </span>
              <span className="break-words">{name(user)}</span>
            </p>
            <dl className="mt-2 grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm">
              {fields.map((field) => (
                <div key={field.label} className="contents">
                  <dt className="text-base-content/75">{field.label}</dt>
                  <dd className={`min-w-0 ${field.className ?? ""}`}>{field.cell(user)}</dd>
                </div>
              ))}
            </dl>
            <div className="mt-3">{action(user)}</div>
          </li>
        ))}
      </ul>
    </section>
  );
}
