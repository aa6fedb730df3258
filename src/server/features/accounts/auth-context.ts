import { AsyncLocalStorage } from "node:async_hooks";
import {
  getBetterAuthVersion,
  getCurrentAuthContextAsyncLocalStorage,
  getCurrentDBAdapterAsyncLocalStorage,
  getRequestStateAsyncLocalStorage,
} from "@better-auth/core/context";

// better-auth keeps three AsyncLocalStorages (its request state, its endpoint context and its
// adapter's transaction), made on its first call. On Node 20 every AsyncLocalStorage that has run
// takes every async resource's init for the rest of the process, and node:http makes about eleven
// for each request (ten ticks and a timer), an early catalog answer's too: three stores cost the
// catalog about three times what one does (docs/decisions/async-hooks-after-sign-in.md). So the
// shop hands better-auth three slots of one store before its first call, in the global context
// where it looks for them first (docs/decisions/one-store-for-better-auth.md).

/** Where better-auth keeps its context in the process (`Symbol.for`, so shared by its copies). */
const BETTER_AUTH_GLOBAL = Symbol.for("better-auth:global");
/** The names of better-auth's stores in that context (@better-auth/core 1.7, src/context). */
const STORE_NAMES = [
  "requestStateAsyncStorage",
  "endpointContextAsyncStorage",
  "adapterAsyncStorage",
] as const;

/** The one store that runs: each of its values is a frame, and a frame's slot values are kept by the slots. */
const frames = new AsyncLocalStorage<object>();
/** The frame each frame was made in: a slot not set in a frame has the value it had there. */
const parentOf = new WeakMap<object, object | undefined>();

/**
 * One of better-auth's stores as a slot of the shared one: `run` and `getStore` behave as its own
 * AsyncLocalStorage's would (a run sets this slot's value for the callback and what it starts,
 * the other slots keep theirs). It never runs itself, so it never enables an async hook.
 */
export class SharedSlot<T> extends AsyncLocalStorage<T> {
  readonly #values = new WeakMap<object, T>();

  override run<R, TArgs extends unknown[]>(store: T, callback: (...args: TArgs) => R, ...args: TArgs): R {
    const frame = {};
    parentOf.set(frame, frames.getStore());
    this.#values.set(frame, store);
    return frames.run(frame, callback, ...args);
  }

  override getStore(): T | undefined {
    for (let frame = frames.getStore(); frame !== undefined; frame = parentOf.get(frame)) {
      if (this.#values.has(frame)) return this.#values.get(frame);
    }
    return undefined;
  }

  override enterWith(): void {
    throw new Error("a shared better-auth store supports run and getStore only");
  }

  override exit(): never {
    throw new Error("a shared better-auth store supports run and getStore only");
  }
}

function betterAuthContext(): object | undefined {
  // Made by better-auth's first look at it, before any of its stores.
  getBetterAuthVersion();
  const global: unknown = Reflect.get(globalThis, BETTER_AUTH_GLOBAL);
  if (typeof global !== "object" || global === null) return undefined;
  const context: unknown = Reflect.get(global, "context");
  return typeof context === "object" && context !== null ? context : undefined;
}

/** better-auth's three stores as it hands them out (each made on the first call if none is set). */
export function betterAuthStores(): Promise<AsyncLocalStorage<unknown>[]> {
  return Promise.all([
    getRequestStateAsyncLocalStorage(),
    getCurrentAuthContextAsyncLocalStorage(),
    getCurrentDBAdapterAsyncLocalStorage(),
  ]);
}

/**
 * Gives better-auth one store with three slots instead of three stores, before its first call.
 * Resolves true when better-auth then hands out the slots as its stores; false when it does not
 * (a store made before, or another layout in a later version): it then keeps its own, as before.
 */
export async function shareAuthContexts(): Promise<boolean> {
  const context = betterAuthContext();
  if (context) {
    for (const name of STORE_NAMES) {
      if (Reflect.get(context, name) === undefined) Reflect.set(context, name, new SharedSlot());
    }
  }
  const stores = await betterAuthStores();
  return stores.every((store) => store instanceof SharedSlot);
}
