import { Link } from "react-router";
import { commonMessages } from "../../../shared/messages/common.js";
import { PageTitle } from "../../components/page-title.js";
import { paths } from "../../lib/paths.js";

export function NotFoundPage() {
  return (
    <div className="mx-auto flex max-w-3xl flex-col items-center px-4 py-16 text-center sm:px-6">
      <PageTitle title={commonMessages.notFound} />
      <img
        src="/media/not-found.svg"
        alt={commonMessages.notFoundAlt}
        width={640}
        height={480}
        className="h-auto w-full max-w-md rounded-box"
      />
      <h1 className="mt-8 text-4xl font-extrabold tracking-tight sm:text-5xl">{commonMessages.notFound}</h1>
      <p className="mt-4 text-lg text-base-content/80">{commonMessages.notFoundLead}</p>
      <div className="mt-8 flex flex-wrap justify-center gap-4">
        <Link to={paths.home} className="btn btn-primary">
          {commonMessages.backHome}
        </Link>
        <Link to={paths.tools} className="btn btn-outline">
          {commonMessages.browseProducts}
        </Link>
      </div>
    </div>
  );
}
