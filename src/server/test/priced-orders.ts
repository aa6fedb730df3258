import { expect } from "vitest";
import type { Order } from "../../shared/orders.js";
import { discountCodes, shopSettings } from "../db/schema/index.js";
import { post, type Shop } from "./payments.js";
import { insertProduct } from "./products.js";
import type { TestUser } from "./users.js";

/**
 * Orders with a discount, tax and a company, as the tests of what shows an order's amounts (mails,
 * invoices, the CSV export) book them: the shop's tax settings and a code set with SQL, then a
 * booking through POST /api/orders as a customer makes it (the server prices it: book_order).
 */

type Settings = { taxRateBp: number; pricesIncludeTax: boolean; taxId?: string };

/** Sets the shop's tax (and its tax ID); `restore` puts back no tax and no tax ID. */
export async function setTax(shop: Shop, settings: Settings) {
  await shop.database.db
    .update(shopSettings)
    .set({ taxId: "", ...settings })
    .execute();
  return {
    restore: () =>
      shop.database.db
        .update(shopSettings)
        .set({ taxRateBp: 0, pricesIncludeTax: false, taxId: "" })
        .execute(),
  };
}

/** A discount code for every product, without limits: `value` percent, or cents with kind "amount". */
export async function insertCode(
  shop: Shop,
  code: string,
  value: number,
  kind: "percent" | "amount" = "percent",
) {
  await shop.database.db.insert(discountCodes).values({ code: code.toUpperCase(), kind, value });
}

type Booking = {
  price: number;
  quantity?: number;
  discountCode?: string;
  companyName?: string;
  companyTaxId?: string;
};

/** `user` books `quantity` (10) units of a new keyboard at `price` dollars, with a code and a company if given. */
export async function bookPriced(shop: Shop, user: TestUser, booking: Booking): Promise<Order> {
  const { price, quantity = 10, ...rest } = booking;
  const productId = await insertProduct(shop.database.db, {
    name: `Priced keyboard ${Math.random()}`,
    image: "/media/products/x.svg",
    price,
    category: "keyboards",
  });
  const res = await post(shop, user, "/api/orders", {
    productId,
    quantity,
    address: "1 Loop Road, Austin",
    phone: "5550123",
    ...rest,
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}
