import type { ImportReport } from "../../../../shared/catalog-csv.js";
import { api } from "../../../lib/api.js";
import { catalogKeys } from "../../../lib/query-keys.js";
import { useApiMutation } from "../../../lib/use-api-mutation.js";

/** Sends the file as text/csv: the server reads it as a stream. A dry run unless `apply`. */
function importProducts({ file, apply }: { file: File; apply: boolean }): Promise<ImportReport> {
  return api<ImportReport>(`/api/products/import?apply=${apply}`, {
    method: "POST",
    headers: { "content-type": "text/csv" },
    body: file,
  });
}

export function useImportProducts() {
  return useApiMutation(importProducts, {
    invalidates: ({ apply }) => (apply ? [catalogKeys.all] : []),
  });
}
