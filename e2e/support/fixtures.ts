import { type APIRequestContext, test as base } from "@playwright/test";
import type { Product, ProductInput } from "../../src/shared/catalog.js";
import type { Order } from "../../src/shared/orders.js";
import {
  type Account,
  addProduct,
  type Credentials,
  type DEMO_ADMIN,
  PASSWORD,
  payOrder,
  placeOrder,
  removeOrder,
  removeUser,
  signInAsAdmin,
  signUp,
  uniqueEmail,
  uniqueName,
  unpaidOrdersOf,
  userIdOf,
} from "./data.js";
import { E2E } from "./env.js";

/**
 * The browser tests' fixtures: signed-in people and the data a test makes, each removed in the
 * test's teardown through the admin API, so what one journey makes is gone before the next one of
 * its worker starts. What the shop cannot remove stays, and says so here:
 * - products: the API deletes only a product never ordered (and archives the others), so the
 *   products a test adds stay in the catalog; tests name theirs to keep out of other journeys' way;
 * - paid orders: the shop keeps them as records (removing one answers 409); removing their customer
 *   unlinks them;
 * - reviews: the API has no way to remove one; removing their author unlinks them (the name stays).
 * Uploaded images stay as well: they are stored by content, and nothing removes them.
 *
 * A test that needs only the sign-in asks for it by name, as `{ page, admin: _ }`.
 */

export type Users = {
  /**
   * Signs up a fresh customer through the API in `request`'s context (a page's `page.request` shares
   * the page's cookies, so the page is signed in as them), removed in teardown with its unpaid orders.
   */
  signUp(request: APIRequestContext, details?: { tag?: string; name?: string }): Promise<Account>;
  /** An account the test creates another way (the sign-up form, Google): removed in teardown too. */
  track(email: string): void;
};

export type Products = {
  /** Adds a product through the API as the admin (see above: it cannot be removed). */
  add(product: ProductInput): Promise<Product>;
};

type Orders = {
  /** Books `quantity` units as `request`'s signed-in customer; removed in teardown unless paid. */
  place(request: APIRequestContext, productId: string, quantity?: number): Promise<Order>;
  /** Pays through the sandbox provider as `customer` on `request` would from the payment page. */
  pay(request: APIRequestContext, order: Order, customer: Credentials): Promise<void>;
};

type TestFixtures = {
  users: Users;
  /** A fresh customer, signed up and signed in on `page`, with its credentials; removed in teardown. */
  customer: Account;
  /** `page` signed in as the demo admin (seeded, shared by every journey: never removed). */
  admin: typeof DEMO_ADMIN;
  products: Products;
  orders: Orders;
};

type WorkerFixtures = {
  /** A request context of its own signed in as the demo admin: makes products and cleans up. */
  adminApi: APIRequestContext;
};

export const test = base.extend<TestFixtures, WorkerFixtures>({
  adminApi: [
    async ({ playwright }, use) => {
      const api = await playwright.request.newContext({ baseURL: E2E.baseURL });
      await signInAsAdmin(api);
      await use(api);
      await api.dispose();
    },
    { scope: "worker" },
  ],

  users: async ({ adminApi }, use) => {
    const made: Array<{ email: string; id?: string }> = [];
    await use({
      async signUp(request, { tag = "customer", name = uniqueName("Customer") } = {}) {
        const credentials = { name, email: uniqueEmail(tag), password: PASSWORD };
        const account = { email: credentials.email, id: undefined as string | undefined };
        made.push(account);
        const signedUp = await signUp(request, credentials);
        account.id = signedUp.id;
        return signedUp;
      },
      track(email) {
        made.push({ email });
      },
    });
    // Newest first; an account the test removed itself, or never finished making, is skipped.
    for (const { email, id } of made.reverse()) {
      for (const order of await unpaidOrdersOf(adminApi, email)) await removeOrder(adminApi, order.id);
      const found = id ?? (await userIdOf(adminApi, email));
      if (found) await removeUser(adminApi, found);
    }
  },

  customer: async ({ page, users }, use) => {
    await use(await users.signUp(page.request));
  },

  admin: async ({ page }, use) => {
    await use(await signInAsAdmin(page.request));
  },

  products: async ({ adminApi }, use) => {
    await use({ add: (product) => addProduct(adminApi, product) });
  },

  orders: async ({ adminApi }, use) => {
    const placed: Order[] = [];
    const paid = new Set<string>();
    await use({
      async place(request, productId, quantity) {
        const order = await placeOrder(request, productId, quantity);
        placed.push(order);
        return order;
      },
      async pay(request, order, customer) {
        await payOrder(request, order, customer);
        paid.add(order.id);
      },
    });
    for (const order of placed.reverse()) if (!paid.has(order.id)) await removeOrder(adminApi, order.id);
  },
});

export { expect } from "@playwright/test";
