import type { ReactNode } from "react";
import { PageTitle } from "./page-title.js";

type Props = {
  title: string;
  lead?: ReactNode;
  children?: ReactNode;
};

/** The h1 band at the top of a content page, which also names the browser tab. */
export function PageHeader({ title, lead, children }: Props) {
  return (
    <div className="border-b border-base-content/10 bg-base-200">
      <PageTitle title={title} />
      <div className="mx-auto max-w-7xl px-4 py-12 sm:px-6 lg:py-16">
        <h1 className="text-4xl font-extrabold tracking-tight sm:text-5xl">{title}</h1>
        <div className="bg-rgb mt-4 h-1 w-20 rounded-full" aria-hidden="true" />
        {lead ? <p className="mt-5 max-w-3xl text-lg text-base-content/80">{lead}</p> : null}
        {children}
      </div>
    </div>
  );
}
