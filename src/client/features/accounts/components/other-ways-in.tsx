import { Link } from "react-router";
import { accountMessages } from "../../../../shared/messages/accounts.js";
import { GoogleButton } from "./google-button.js";

type Props = {
  /** Where Google's sign-in comes back to. */
  redirectTo: string;
  /** The line to the other account page: its question, and the link that answers it. */
  question: string;
  linkLabel: string;
  linkTo: string;
};

/** Under the email form of login and registration: "or" Google, and the way to the other page. */
export function OtherWaysIn({ redirectTo, question, linkLabel, linkTo }: Props) {
  return (
    <>
      <div className="divider my-0 text-sm text-base-content/75">{accountMessages.form.or}</div>
      <GoogleButton redirectTo={redirectTo} />
      <p className="text-center text-sm text-base-content/80">
        {question}{" "}
        <Link to={linkTo} className="link link-primary">
          {linkLabel}
        </Link>
      </p>
    </>
  );
}
