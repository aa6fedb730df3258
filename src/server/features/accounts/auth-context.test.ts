import { AsyncLocalStorage } from "node:async_hooks";
import { createRequire } from "node:module";
import { setImmediate as tick } from "node:timers/promises";
import { afterEach, describe, expect, it, vi } from "vitest";
import { setUpTestApp } from "../../test/app.js";
import { cookieHeader, signIn, signUp } from "../../test/users.js";
import { betterAuthStores, SharedSlot } from "./auth-context.js";

const ctx = setUpTestApp();

afterEach(() => {
  vi.restoreAllMocks();
});

describe("a shared slot", () => {
  it("keeps its value for the callback and what it starts, as an AsyncLocalStorage does", async () => {
    const slot = new SharedSlot<string>();
    expect(slot.getStore()).toBeUndefined();
    const seen = await slot.run(
      "outer",
      async (suffix: string) => {
        await tick();
        const inner = await slot.run("inner", async () => {
          await tick();
          return slot.getStore();
        });
        return [inner, `${slot.getStore()}${suffix}`];
      },
      "!",
    );
    expect(seen).toEqual(["inner", "outer!"]);
    expect(slot.getStore()).toBeUndefined();
  });

  it("leaves the other slots' values as they were, and concurrent runs apart", async () => {
    const a = new SharedSlot<number>();
    const b = new SharedSlot<number | undefined>();
    const both = (n: number) =>
      a.run(n, async () => {
        await tick();
        const inB = await b.run(n * 10, async () => {
          await tick();
          return [a.getStore(), b.getStore()];
        });
        // A slot run with undefined hides the value it had outside.
        const hidden = b.run(undefined, () => b.getStore());
        return [...inB, b.getStore(), hidden];
      });
    expect(await Promise.all([both(1), both(2), both(3)])).toEqual([
      [1, 10, undefined, undefined],
      [2, 20, undefined, undefined],
      [3, 30, undefined, undefined],
    ]);
  });

  it("refuses enterWith and exit rather than turn an async hook on for itself", () => {
    const slot = new SharedSlot<string>();
    expect(() => slot.enterWith()).toThrow(/run and getStore only/);
    expect(() => slot.exit()).toThrow(/run and getStore only/);
  });
});

describe("better-auth's stores", () => {
  it("are slots of one store, through sign-up, sign-in and session reads", async () => {
    // The app (setUpTestApp) shared them before better-auth's first call (these getters would
    // make plain AsyncLocalStorages otherwise).
    const stores = await betterAuthStores();
    expect(stores.every((store) => store instanceof SharedSlot)).toBe(true);

    // Every AsyncLocalStorage that runs from here on: one, the slots' own.
    const running = new Set<AsyncLocalStorage<unknown>>();
    const run = AsyncLocalStorage.prototype.run;
    vi.spyOn(AsyncLocalStorage.prototype, "run").mockImplementation(function (
      this: AsyncLocalStorage<unknown>,
      store,
      callback,
      ...args
    ) {
      running.add(this);
      return run.call(this, store, callback, ...args);
    });
    const user = await signUp(ctx.app);
    const res = await signIn(ctx.app, user.email, user.password);
    expect(res.statusCode).toBe(200);
    const me = await ctx.app.inject({
      method: "GET",
      url: "/api/me",
      headers: { cookie: cookieHeader(res.headers["set-cookie"]) },
    });
    expect(me.statusCode).toBe(200);
    expect(me.json<{ email: string }>().email).toBe(user.email);
    expect(running.size).toBe(1);
  });
});

describe("@better-auth/core", () => {
  it("is the copy better-auth itself loads, so the slots and the start-up check meet its stores", () => {
    // Two copies would keep one global context (Symbol.for) but the check would read the getters
    // of the shop's copy: package.json pins core to the version better-auth pins.
    const require = createRequire(import.meta.url);
    const fromBetterAuth = createRequire(require.resolve("better-auth"));
    expect(fromBetterAuth.resolve("@better-auth/core/context")).toBe(
      require.resolve("@better-auth/core/context"),
    );
  });
});
