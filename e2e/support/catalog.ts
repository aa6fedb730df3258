import { type APIRequestContext, expect } from "@playwright/test";
import type { Product, ProductInput } from "../../src/shared/catalog.js";
import { E2E } from "./env.js";

/** Adds a product through the API, as the admin signed in on `admin`. */
export async function addProduct(admin: APIRequestContext, product: ProductInput): Promise<Product> {
  const response = await admin.post("/api/products", { headers: { origin: E2E.baseURL }, data: product });
  expect(response.status()).toBe(201);
  return (await response.json()) as Product;
}
