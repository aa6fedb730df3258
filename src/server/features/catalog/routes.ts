import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import {
  productIdParamsSchema,
  productListQuerySchema,
  productListSchema,
  productSchema,
} from "../../../shared/catalog.js";
import { notFound } from "../../lib/problem.js";
import { problemResponses } from "../../lib/schemas.js";
import { getProduct, listProducts } from "./service.js";

export const catalogRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    "/api/products",
    {
      schema: {
        tags: ["catalog"],
        summary: "List products with search, category filter, sorting and pagination",
        querystring: productListQuerySchema,
        response: { 200: productListSchema, ...problemResponses(400) },
      },
    },
    async (request) => listProducts(app.db, request.query),
  );

  app.get(
    "/api/products/:id",
    {
      schema: {
        tags: ["catalog"],
        summary: "One product",
        params: productIdParamsSchema,
        response: { 200: productSchema, ...problemResponses(400, 404) },
      },
    },
    async (request) => {
      const product = await getProduct(app.db, request.params.id);
      if (!product) throw notFound("This product does not exist.");
      return product;
    },
  );
};
