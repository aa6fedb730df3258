import { PageTitle } from "./page-title.js";

/** The heading of a dashboard page, which also names the browser tab. */
export function DashboardHeading({ title, lead }: { title: string; lead: string }) {
  return (
    <header className="mb-8">
      <PageTitle title={title} />
      <h1 className="text-3xl font-extrabold tracking-tight">{title}</h1>
      <p className="mt-2 text-base-content/80">{lead}</p>
    </header>
  );
}
