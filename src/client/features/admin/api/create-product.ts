import type { Product, ProductInput } from "../../../../shared/catalog.js";
import { api } from "../../../lib/api.js";
import { adminKeys, catalogKeys } from "../../../lib/query-keys.js";
import { useApiMutation } from "../../../lib/use-api-mutation.js";

function createProduct(input: ProductInput): Promise<Product> {
  return api<Product>("/api/products", { method: "POST", json: input });
}

export function useCreateProduct() {
  return useApiMutation(createProduct, { invalidates: [catalogKeys.all, adminKeys.overview()] });
}
