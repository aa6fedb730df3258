import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { Product, ProductInput } from "../../../../shared/catalog.js";
import { api } from "../../../lib/api.js";
import { adminKeys, catalogKeys } from "../../../lib/query-keys.js";

function createProduct(input: ProductInput): Promise<Product> {
  return api<Product>("/api/products", { method: "POST", json: input });
}

export function useCreateProduct() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createProduct,
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: catalogKeys.all }),
        queryClient.invalidateQueries({ queryKey: adminKeys.overview() }),
      ]),
  });
}
