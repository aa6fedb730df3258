import type { ReactNode } from "react";

type Props = {
  /** The heading's id, which names the section. */
  id: string;
  title: string;
  lead?: string;
  /** A link or button beside the heading (e.g. "All products"). */
  action?: ReactNode;
  /** h1 when the section is a page of its own, h2 inside the home page. */
  level?: 1 | 2;
  children: ReactNode;
};

/** A section of the home page (some are pages of their own too): its heading, lead and contents. */
export function TitledSection({ id, title, lead, action, level = 2, children }: Props) {
  const Heading = level === 1 ? "h1" : "h2";
  return (
    <section aria-labelledby={id} className="mx-auto max-w-7xl px-4 py-16 sm:px-6">
      <div className="mb-10 flex flex-wrap items-end justify-between gap-4">
        <div className="max-w-2xl">
          <Heading id={id} className="text-3xl font-bold tracking-tight sm:text-4xl">
            {title}
          </Heading>
          <div className="bg-rgb mt-3 h-1 w-16 rounded-full" aria-hidden="true" />
          {lead ? <p className="mt-4 text-base-content/75 sm:text-lg">{lead}</p> : null}
        </div>
        {action}
      </div>
      {children}
    </section>
  );
}
