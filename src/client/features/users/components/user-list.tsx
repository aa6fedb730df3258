import type { ReactNode, Ref } from "react";
import { adminMessages } from "../../../../shared/messages/admin.js";
import { userMessages } from "../../../../shared/messages/users.js";
import type { User } from "../../../../shared/users.js";
import { ListCard, ResponsiveList } from "../../../components/responsive-list.js";
import { useSession } from "../../../lib/auth.js";
import { UserName } from "./user-name.js";

const text = userMessages;

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
  const { user: me } = useSession();
  const name = (user: User) => <UserName name={user.name} isMe={user.id === me?.id} />;
  return (
    <ResponsiveList
      caption={caption}
      columns={[
        adminMessages.serial,
        text.name,
        ...fields.map((f) => f.label),
        { label: text.action, hidden: true },
      ]}
      items={users}
      first={first}
      empty={empty}
      ref={ref}
      row={(user, serial) => (
        <tr key={user.id}>
          <th scope="row">{serial.toLocaleString("en-US")}</th>
          <td className="font-medium">{name(user)}</td>
          {fields.map((field) => (
            <td key={field.label} className={field.className}>
              {field.cell(user)}
            </td>
          ))}
          <td>{action(user)}</td>
        </tr>
      )}
      card={(user, serial, headingId) => (
        <ListCard
          headingId={headingId}
          serialLabel={adminMessages.serial}
          serial={serial}
          title={name(user)}
          details={fields.map((field) => ({
            label: field.label,
            value: field.cell(user),
            className: field.className,
          }))}
          footer={action(user)}
        />
      )}
    />
  );
}
