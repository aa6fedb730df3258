import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { Product, ProductPatch } from "../../../../shared/catalog.js";
import { api } from "../../../lib/api.js";
import { adminKeys, catalogKeys } from "../../../lib/query-keys.js";

type UpdateProductInput = { id: string; patch: ProductPatch };

function updateProduct({ id, patch }: UpdateProductInput): Promise<Product> {
  return api<Product>(`/api/products/${encodeURIComponent(id)}`, { method: "PATCH", json: patch });
}

export function useUpdateProduct() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateProduct,
    // Lists, the product's own page and the overview's low-stock list all show price or stock.
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: catalogKeys.all }),
        queryClient.invalidateQueries({ queryKey: adminKeys.overview() }),
      ]),
  });
}
