import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import {
  productIdParamsSchema,
  productInputSchema,
  productListQuerySchema,
  productListSchema,
  productPatchSchema,
  productSchema,
} from "../../../shared/catalog.js";
import { messages } from "../../../shared/messages.js";
import { notFound } from "../../lib/problem.js";
import { problemResponses } from "../../lib/schemas.js";
import { createProduct, getProduct, listProducts, updateProduct } from "./service.js";

export const catalogRoutes: FastifyPluginAsyncZod = async (app) => {
  const tags = ["catalog"];

  app.get(
    "/api/products",
    {
      schema: {
        tags,
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
        tags,
        summary: "One product",
        params: productIdParamsSchema,
        response: { 200: productSchema, ...problemResponses(400, 404) },
      },
    },
    async (request) => {
      const product = await getProduct(app.db, request.params.id);
      if (!product) throw notFound(messages.product.notFound);
      return product;
    },
  );

  app.post(
    "/api/products",
    {
      onRequest: app.requireAdmin,
      schema: {
        tags,
        summary: "Add a product (admin)",
        body: productInputSchema,
        response: { 201: productSchema, ...problemResponses(400, 401, 403) },
      },
    },
    async (request, reply) => reply.code(201).send(await createProduct(app.db, request.body)),
  );

  app.patch(
    "/api/products/:id",
    {
      onRequest: app.requireAdmin,
      schema: {
        tags,
        summary: "Change a product's price, stock, description, name, image or category (admin)",
        params: productIdParamsSchema,
        body: productPatchSchema,
        response: { 200: productSchema, ...problemResponses(400, 401, 403, 404) },
      },
    },
    async (request) => {
      const product = await updateProduct(app.db, request.params.id, request.body);
      if (!product) throw notFound(messages.product.notFound);
      return product;
    },
  );
};
