import { userMessages } from "../../../../shared/messages/users.js";

/** A user's name in a table row, marked "(you)" on the admin's own row. */
export function UserName({ name, isMe }: { name: string; isMe: boolean }) {
  return (
    <>
      {name}
      {isMe ? <span className="ml-1 text-base-content/75">{userMessages.you}</span> : null}
    </>
  );
}
