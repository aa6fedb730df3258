import { useState } from "react";
import type { ImportReport } from "../../../../shared/catalog-csv.js";
import { catalogCsvMessages } from "../../../../shared/messages/catalog-csv.js";
import { AdminPage } from "../../../components/admin-page.js";
import { FieldFrame } from "../../../components/field-frame.js";
import { problemMessage } from "../../../lib/form-errors.js";
import { formatCount } from "../../../lib/format.js";
import { useImportProducts } from "../api/import-products.js";

const m = catalogCsvMessages.import;

/**
 * /dashboard/importProducts (admin): a CSV of products, checked first (a dry run that changes
 * nothing), then applied; and the whole catalog as CSV to download.
 */
export function ImportProductsPage() {
  const [file, setFile] = useState<File | undefined>();
  const [report, setReport] = useState<ImportReport | undefined>();
  const run = useImportProducts();
  const send = (apply: boolean) => {
    if (!file) return;
    run.mutate({ file, apply }, { onSuccess: setReport });
  };
  return (
    <AdminPage title={m.title} lead={m.lead}>
      <div className="flex flex-col gap-6">
        <FieldFrame label={m.file} hint={m.fileHint}>
          {(control) => (
            <input
              {...control}
              type="file"
              accept=".csv,text/csv"
              className="file-input w-full max-w-xl"
              onChange={(event) => {
                setFile(event.target.files?.[0]);
                setReport(undefined);
              }}
            />
          )}
        </FieldFrame>
        <div className="flex flex-wrap gap-3">
          <button type="button" className="btn" disabled={!file || run.isPending} onClick={() => send(false)}>
            {run.isPending && !run.variables?.apply ? m.checking : m.check}
          </button>
          <button
            type="button"
            className="btn btn-primary"
            // Applied only after a dry run of this file has been seen.
            disabled={!file || !report || report.applied || run.isPending}
            onClick={() => send(true)}
          >
            {run.isPending && run.variables?.apply ? m.applying : m.apply}
          </button>
          <a className="btn btn-ghost" href="/api/products/export.csv" download>
            {m.download}
          </a>
        </div>
        {run.isError ? (
          <p role="alert" className="alert alert-error">
            {problemMessage(run.error)}
          </p>
        ) : null}
        {report ? <ReportView report={report} /> : null}
      </div>
    </AdminPage>
  );
}

function ReportView({ report }: { report: ImportReport }) {
  return (
    <section aria-labelledby="import-report" role="status">
      <h2 id="import-report" className="text-xl font-semibold">
        {report.applied ? m.appliedTitle : m.dryRunTitle}
      </h2>
      <ul className="mt-3 flex flex-wrap gap-2">
        <li className="badge badge-lg badge-soft badge-success">{m.created(formatCount(report.created))}</li>
        <li className="badge badge-lg badge-soft badge-info">{m.changed(formatCount(report.changed))}</li>
        <li className="badge badge-lg badge-soft">{m.unchanged(formatCount(report.unchanged))}</li>
        <li className="badge badge-lg badge-soft badge-error">{m.bad(formatCount(report.bad))}</li>
      </ul>
      {report.errors.length > 0 ? (
        <table className="table mt-4">
          <thead>
            <tr>
              <th scope="col">{m.line}</th>
              <th scope="col">{m.reason}</th>
            </tr>
          </thead>
          <tbody>
            {report.errors.map((error) => (
              <tr key={`${error.line}-${error.reason}`}>
                <td>{error.line}</td>
                <td>{error.reason}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      {report.bad > report.errors.length ? (
        <p className="mt-2">{m.moreBad(formatCount(report.bad - report.errors.length))}</p>
      ) : null}
    </section>
  );
}
