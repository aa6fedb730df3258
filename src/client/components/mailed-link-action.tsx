import type { UseMutationResult } from "@tanstack/react-query";
import type { ReactNode } from "react";
import { useSearchParams } from "react-router";
import { problemMessage } from "../lib/form-errors.js";
import { MailedLinkAsk } from "./mailed-link-page.js";

/** The token a mailed link carries in its address (`?token=…`), empty when it came without one. */
export function useLinkToken(): string {
  const [params] = useSearchParams();
  return params.get("token") ?? "";
}

type Props<Data> = {
  /** What the button does with the link's token (an API call that needs no sign-in). */
  action: UseMutationResult<Data, Error, string>;
  lead: string;
  label: string;
  /** Said, with the button off, when the link came without its token. */
  missing?: string;
  /** What the page says once the action went through. */
  done: (data: Data) => ReactNode;
};

/**
 * A mailed link's question (MailedLinkAsk) wired to its action: the button sends the link's token,
 * the server's refusal shows under the lead, and what was done replaces the question.
 */
export function MailedLinkAction<Data>({ action, lead, label, missing, done }: Props<Data>) {
  const token = useLinkToken();
  if (action.isSuccess) return done(action.data);
  return (
    <MailedLinkAsk
      lead={lead}
      error={!token ? missing : action.isError ? problemMessage(action.error) : undefined}
      disabled={action.isPending || !token}
      label={label}
      onConfirm={() => action.mutate(token)}
    />
  );
}
