import type { AdminProduct } from "../../../../shared/catalog.js";
import { api } from "../../../lib/api.js";
import { adminKeys, catalogKeys } from "../../../lib/query-keys.js";
import { useApiMutation } from "../../../lib/use-api-mutation.js";

type ArchiveInput = { id: string; archived: boolean };

/** Archives (retires) a product, or restores it to the storefront. */
function setArchived({ id, archived }: ArchiveInput): Promise<AdminProduct> {
  const action = archived ? "archive" : "restore";
  return api<AdminProduct>(`/api/products/${encodeURIComponent(id)}/${action}`, { method: "POST" });
}

export function useArchiveProduct() {
  // The product leaves or rejoins every list, the storefront's and the admin's.
  return useApiMutation(setArchived, { invalidates: [catalogKeys.all, adminKeys.overview()] });
}
