import type { ReactNode } from "react";

/** The card's rows: close (a figure and its badge), the default, or roomy (an image and its details). */
const BODY = { close: "card-body gap-2", default: "card-body gap-4", roomy: "card-body gap-5" };

type Props = {
  /** The heading's id, which names the section (tests and axe find the section by it). */
  id: string;
  title: ReactNode;
  /** Buttons or links on the heading's line, at its far end. */
  actions?: ReactNode;
  spacing?: keyof typeof BODY;
  /** Still loading: aria-busy, so a screen reader waits for what is filled in. */
  busy?: boolean;
  children: ReactNode;
};

/** A dashboard card that is a section of its page, named by its h2 (FormCard is the one of a form). */
export function CardSection({ id, title, actions, spacing = "default", busy, children }: Props) {
  const heading = (
    <h2 id={id} className="card-title text-xl">
      {title}
    </h2>
  );
  return (
    <section aria-labelledby={id} aria-busy={busy} className="card border border-base-content/10 bg-base-200">
      <div className={BODY[spacing]}>
        {actions ? (
          <div className="flex flex-wrap items-center justify-between gap-3">
            {heading}
            {actions}
          </div>
        ) : (
          heading
        )}
        {children}
      </div>
    </section>
  );
}
