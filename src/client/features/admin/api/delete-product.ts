import { api } from "../../../lib/api.js";
import { adminKeys, catalogKeys } from "../../../lib/query-keys.js";
import { useApiMutation } from "../../../lib/use-api-mutation.js";

/** Deletes a product that was never ordered; one that was is refused (409, code product-ordered). */
function deleteProduct(id: string): Promise<void> {
  return api<void>(`/api/products/${encodeURIComponent(id)}`, { method: "DELETE" });
}

export function useDeleteProduct() {
  return useApiMutation(deleteProduct, { invalidates: [catalogKeys.all, adminKeys.overview()] });
}
