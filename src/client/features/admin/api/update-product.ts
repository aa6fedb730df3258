import type { AdminProduct, ProductPatch } from "../../../../shared/catalog.js";
import { api } from "../../../lib/api.js";
import { adminKeys, catalogKeys } from "../../../lib/query-keys.js";
import { useApiMutation } from "../../../lib/use-api-mutation.js";

type UpdateProductInput = { id: string; patch: ProductPatch };

function updateProduct({ id, patch }: UpdateProductInput): Promise<AdminProduct> {
  return api<AdminProduct>(`/api/products/${encodeURIComponent(id)}`, { method: "PATCH", json: patch });
}

export function useUpdateProduct() {
  // Lists, the product's own page and the overview's low-stock list all show price or stock.
  return useApiMutation(updateProduct, { invalidates: [catalogKeys.all, adminKeys.overview()] });
}
