import { isRouteErrorResponse, useRouteError } from "react-router";
import { commonMessages } from "../../../shared/messages/common.js";
import { PageTitle } from "../../components/page-title.js";
import { paths } from "../../lib/paths.js";
import { NotFoundPage } from "./not-found.js";

/**
 * Shown instead of the app when a page fails to render or its code cannot be loaded
 * (for example after a deploy replaced the chunk the open tab was asking for).
 */
export function RouteError() {
  const error = useRouteError();
  if (isRouteErrorResponse(error) && error.status === 404) return <NotFoundPage />;
  return (
    <div className="mx-auto flex min-h-dvh max-w-xl flex-col items-center justify-center px-4 text-center">
      <PageTitle title={commonMessages.pageFailed} />
      <h1 className="text-3xl font-extrabold tracking-tight">{commonMessages.pageFailed}</h1>
      <p className="mt-4 text-base-content/80">{commonMessages.pageFailedLead}</p>
      <div className="mt-8 flex flex-wrap justify-center gap-4">
        <button type="button" className="btn btn-primary" onClick={() => window.location.reload()}>
          {commonMessages.reload}
        </button>
        <a href={paths.home} className="btn btn-outline">
          {commonMessages.backHome}
        </a>
      </div>
    </div>
  );
}
