import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import type { AdminProduct, AdminProductList, ProductList } from "../../../shared/catalog.js";
import { adminMessages } from "../../../shared/messages/admin.js";
import { catalogMessages } from "../../../shared/messages/catalog.js";
import { orderMessages } from "../../../shared/messages/orders.js";
import type { OrderPage } from "../../../shared/orders.js";
import { problemCodes } from "../../../shared/problem-codes.js";
import { orders } from "../../db/schema/index.js";
import { hasSqlState } from "../../db/sql-state.js";
import { setUpTestApp } from "../../test/app.js";
import { askToBook, bookOrder, confirmWithCard, post } from "../../test/payments.js";
import { insertProduct, productStock } from "../../test/products.js";
import { fromShop } from "../../test/users.js";

/** Issue 31, item 1: archiving, restoring and deleting a product, and what each changes. */

const ctx = setUpTestApp({}, { rateLimit: { max: 10_000, windowSeconds: 60 } });
const admin = ctx.signedUpAdmin({ email: "archive.admin@example.com" });
const alice = ctx.signedUpUser({ name: "Alice Archive" });

/** A product with a name of its own, so a search finds it alone. */
function newProduct(word: string, quantity = 500): Promise<string> {
  return insertProduct(ctx.database.db, { name: `Zephyrus ${word} fan`, price: 20, quantity });
}

const archive = (id: string, cookie = admin.cookie) =>
  fromShop(ctx.app, "POST", `/api/products/${id}/archive`, cookie);
const restore = (id: string, cookie = admin.cookie) =>
  fromShop(ctx.app, "POST", `/api/products/${id}/restore`, cookie);
const remove = (id: string, cookie = admin.cookie) =>
  fromShop(ctx.app, "DELETE", `/api/products/${id}`, cookie);
const get = (url: string, cookie?: string) => ctx.app.inject({ url, headers: cookie ? { cookie } : {} });

async function listed(url: string): Promise<string[]> {
  const res = await get(url);
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as ProductList).items.map((p) => p.id);
}

const stockOf = (id: string) => productStock(ctx.database.db, id);

describe("an archived product", () => {
  it("leaves the lists, the category, every search and the home page, and comes back when restored", async () => {
    const id = await newProduct("Quasar");
    const views = [
      "/api/products?sort=newest&pageSize=48",
      "/api/products?category=cooling-fans&sort=newest&pageSize=48",
      "/api/products?search=Quasar",
      "/api/products?search=Zephyrus%20Quasar",
      "/api/products?search=Quasar&sort=price-asc",
      "/api/products?search=uasa",
      // The home page's products (explore-products.tsx): the list's first page.
      "/api/products?pageSize=8&sort=newest",
    ];
    // Each asked once before, so the answers are in the catalog cache and on the early path.
    for (const url of views) expect(await listed(url), url).toContain(id);
    expect((await get(`/api/products/${id}`)).statusCode).toBe(200);

    const res = await archive(id);
    expect(res.statusCode, res.body).toBe(200);
    const archived: AdminProduct = res.json();
    expect(archived).toMatchObject({ id, archivedAt: expect.any(String) });

    for (const url of views) expect(await listed(url), url).not.toContain(id);
    const page = await get(`/api/products/${id}`);
    expect(page.statusCode).toBe(410);
    expect(page.headers["content-type"]).toContain("application/problem+json");
    expect(page.json()).toMatchObject({
      detail: catalogMessages.archived,
      code: problemCodes.productArchived,
    });

    // Twice is once: the moment of the first archive stays.
    expect((await archive(id)).json().archivedAt).toBe(archived.archivedAt);

    const back = await restore(id);
    expect(back.statusCode).toBe(200);
    expect(back.json().archivedAt).toBeNull();
    for (const url of views) expect(await listed(url), url).toContain(id);
    expect((await get(`/api/products/${id}`)).statusCode).toBe(200);
  });

  it("is in the admin's archived list and not in the list on sale, and can still be edited", async () => {
    const id = await newProduct("Archivist");
    await archive(id);
    const list = async (archived: boolean) => {
      const res = await get(`/api/admin/products?archived=${archived}&pageSize=48`, admin.cookie);
      expect(res.statusCode, res.body).toBe(200);
      return (res.json() as AdminProductList).items.map((p) => p.id);
    };
    expect(await list(true)).toContain(id);
    expect(await list(false)).not.toContain(id);
    const one = await get(`/api/admin/products/${id}`, admin.cookie);
    expect(one.json()).toMatchObject({ id, archivedAt: expect.any(String) });
    const edited = await fromShop(ctx.app, "PATCH", `/api/products/${id}`, admin.cookie, {
      name: "Zephyrus Archivist Pro fan",
      quantity: 40,
    });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json()).toMatchObject({
      name: "Zephyrus Archivist Pro fan",
      quantity: 40,
      archivedAt: expect.any(String),
    });
    expect(await listed("/api/products?search=Archivist")).not.toContain(id);
  });

  it("cannot be booked (410, no stock taken), while an order placed before stays payable and listed", async () => {
    const id = await newProduct("Booker");
    const before = await bookOrder(ctx, alice, id);
    await archive(id);
    const stock = await stockOf(id);

    const refused = await askToBook(ctx, alice, id);
    expect(refused.statusCode, refused.body).toBe(410);
    expect(refused.json()).toMatchObject({
      detail: orderMessages.productArchived,
      code: problemCodes.productArchived,
    });
    expect(await stockOf(id)).toBe(stock);

    // More than the stock: book_order refuses it first, and the reason read afterwards is the archive.
    const tooMany = await askToBook(ctx, alice, id, 100_000);
    expect(tooMany.statusCode, tooMany.body).toBe(410);

    // The order placed before the archive: paid as usual, and shown in My Orders and Manage Orders.
    const transactionId = await confirmWithCard(ctx, alice, before.id);
    const paid = await post(ctx, alice, `/api/orders/${before.id}/pay`, { transactionId });
    expect(paid.statusCode, paid.body).toBe(200);
    const mine: OrderPage = (await get("/api/orders/mine", alice.cookie)).json();
    expect(mine.items.find((o) => o.id === before.id)).toMatchObject({ productId: id, status: "paid" });
    const all: OrderPage = (await get(`/api/orders?search=${before.id}`, admin.cookie)).json();
    expect(all.items.map((o) => o.id)).toEqual([before.id]);
  });

  it("cannot be ordered even by a statement that skips the route's checks (the database refuses)", async () => {
    const id = await newProduct("Direct");
    await archive(id);
    const insert = ctx.database.db.insert(orders).values({
      productId: id,
      productName: "Zephyrus Direct fan",
      img: "/media/products/x.svg",
      name: "Alice",
      email: "alice@example.com",
      address: "1 Loop Road",
      phone: "5550123",
      quantity: 10,
      unitPrice: 20,
      totalPrice: 200,
      netCents: 200 * 100,
      grossCents: 200 * 100,
    });
    const refused = await insert.then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(hasSqlState(refused, "GH410"), String(refused)).toBe(true);
  });
});

describe("DELETE /api/products/:id", () => {
  it("deletes a product never ordered: 204, and it is gone everywhere", async () => {
    const id = await newProduct("Fleeting");
    expect(await listed("/api/products?search=Fleeting")).toContain(id);
    const res = await remove(id);
    expect(res.statusCode, res.body).toBe(204);
    expect(await stockOf(id)).toBeUndefined();
    expect(await listed("/api/products?search=Fleeting")).not.toContain(id);
    expect((await get(`/api/products/${id}`)).statusCode).toBe(404);
    expect((await remove(id)).statusCode).toBe(404);
  });

  it("refuses a product that was ordered (409, pointing to archiving) and keeps it and its orders", async () => {
    const id = await newProduct("Ordered");
    const order = await bookOrder(ctx, alice, id);
    const res = await remove(id);
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({
      detail: adminMessages.products.deleteOrdered,
      code: problemCodes.productOrdered,
    });
    expect(res.json().detail).toMatch(/Archive it/);
    expect(await stockOf(id)).toBeDefined();
    const [row] = await ctx.database.db.select().from(orders).where(eq(orders.id, order.id));
    expect(row?.productId).toBe(id);
    // Archived, it is refused the same way: archiving is the way out, not a way around.
    await archive(id);
    expect((await remove(id)).statusCode).toBe(409);
  });
});

describe("the admin product routes", () => {
  it("are refused to a customer (403) and a visitor (401), changing nothing", async () => {
    const id = await newProduct("Guarded");
    for (const send of [archive, restore, remove]) {
      expect((await send(id, alice.cookie)).statusCode).toBe(403);
      expect((await send(id, "")).statusCode).toBe(401);
    }
    expect((await get("/api/admin/products", alice.cookie)).statusCode).toBe(403);
    expect((await get(`/api/admin/products/${id}`)).statusCode).toBe(401);
    expect(await listed("/api/products?search=Guarded")).toContain(id);
  });

  it("answer 404 for an unknown product", async () => {
    const unknown = "00000000-0000-4000-8000-000000000000";
    expect((await archive(unknown)).statusCode).toBe(404);
    expect((await restore(unknown)).statusCode).toBe(404);
    expect((await get(`/api/admin/products/${unknown}`, admin.cookie)).statusCode).toBe(404);
  });
});
