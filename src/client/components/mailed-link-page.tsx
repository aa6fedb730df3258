import type { ReactNode } from "react";
import { PageTitle } from "./page-title.js";

/** The narrow page a mailed link opens (confirm an address, unsubscribe): its title, then what it says. */
export function MailedLinkPage({ title, children }: { title: string; children: ReactNode }) {
  return (
    <div className="mx-auto max-w-xl px-4 py-16 sm:px-6">
      <PageTitle title={title} />
      <h1 className="text-3xl font-bold">{title}</h1>
      {children}
    </div>
  );
}

type AskProps = {
  lead: string;
  /** Why it did not go ahead: the server's refusal, or a link that came without its token. */
  error?: string | undefined;
  disabled: boolean;
  label: string;
  onConfirm(): void;
};

/**
 * What a mailed link's page shows before it acts: a button to press, never an action on arrival, so
 * a mail scanner that follows the link changes nothing.
 */
export function MailedLinkAsk({ lead, error, disabled, label, onConfirm }: AskProps) {
  return (
    <>
      <p className="mt-4 text-base-content/80">{lead}</p>
      {error !== undefined ? (
        <p role="alert" className="alert alert-error mt-6">
          {error}
        </p>
      ) : null}
      <button type="button" className="btn btn-primary mt-8" disabled={disabled} onClick={onConfirm}>
        {label}
      </button>
    </>
  );
}
