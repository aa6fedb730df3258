import type { ReactNode } from "react";
import { PageTitle } from "../../../components/page-title.js";

type Props = {
  title: string;
  lead: string;
  children: ReactNode;
};

/** The centred card every account page sits in; its title is the page's h1 and the tab's name. */
export function AuthCard({ title, lead, children }: Props) {
  return (
    <div className="mx-auto w-full max-w-md px-4 py-12 sm:px-6 sm:py-16">
      <PageTitle title={title} />
      <div className="card border border-base-content/10 bg-base-200 shadow-xl">
        <div className="bg-rgb h-1 rounded-t-box" aria-hidden="true" />
        <div className="card-body gap-6 p-6 sm:p-8">
          <header>
            <h1 className="text-3xl font-extrabold tracking-tight">{title}</h1>
            <p className="mt-2 text-base-content/80">{lead}</p>
          </header>
          {children}
        </div>
      </div>
    </div>
  );
}
