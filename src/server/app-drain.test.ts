import type net from "node:net";
import type { RouteOptions } from "fastify";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MIN_ORDER_QUANTITY } from "../shared/constants.js";
import { setUpTestApp } from "./test/app.js";
import { stockedProduct } from "./test/products.js";
import { rawConnection } from "./test/raw-connection.js";
import { until } from "./test/until.js";
import { ORIGIN } from "./test/users.js";

/**
 * A stopping instance (app.drain(), main.ts on SIGTERM; issue 28, "A stop that ends cleanly"):
 * every answer from then on says `Connection: close` and the server closes its connection after
 * it, the catalog's early answers (plugins/early-answers.ts) and answers already being prepared
 * included. A kept-alive connection would otherwise hold the closing server open until the stop's
 * forced limit. Over raw sockets, to see the header as sent and which side ends the connection.
 */

let routedByFastify = 0;
const ctx = setUpTestApp(
  {},
  {
    onRoute: (route) => {
      if (route.url !== "/api/products" || route.method !== "GET") return;
      const options = route as RouteOptions;
      options.onRequest = [
        async () => {
          routedByFastify++;
        },
        ...[options.onRequest ?? []].flat(),
      ] as RouteOptions["onRequest"];
    },
  },
);
const buyer = ctx.signedUpUser({ name: "Drain Buyer" });
let port: number;

beforeAll(async () => {
  await ctx.app.listen({ port: 0, host: "127.0.0.1" });
  port = (ctx.app.server.address() as net.AddressInfo).port;
});

describe("requests in flight", () => {
  it("are forgotten once answered, in-process (light-my-request) too", async () => {
    for (const url of ["/healthz", "/api/products", "/api/nowhere"]) await ctx.app.inject({ url });
    expect(ctx.app.requestsInFlight()).toEqual([]);
  });
});

describe("draining", () => {
  let locker: pg.Client;
  afterAll(async () => {
    await locker?.end().catch(() => {});
  });

  it("every answer closes its connection: early ones, routed ones, and one being prepared when the drain began", async () => {
    const productId = await stockedProduct(ctx.app.db, 100);
    // Before the drain: kept alive, and the product list is routed once, then answered early.
    const catalog = rawConnection(port);
    const health = rawConnection(port);
    const order = rawConnection(port);
    expect((await catalog.send("GET", "/api/products")).headers.connection).toBe("keep-alive");
    expect((await health.send("GET", "/healthz")).headers.connection).toBe("keep-alive");
    const routed = routedByFastify;

    // An order waits on its product's row, locked here, while the drain begins.
    locker = new pg.Client({ connectionString: ctx.url });
    await locker.connect();
    await locker.query("begin");
    await locker.query("select 1 from product where id = $1 for update", [productId]);
    const placed = order.send(
      "POST",
      "/api/orders",
      { origin: ORIGIN, cookie: buyer.cookie, "content-type": "application/json" },
      JSON.stringify({
        productId,
        quantity: MIN_ORDER_QUANTITY,
        address: "1 Drain Road, Austin",
        phone: "5550123",
      }),
    );
    await until("the order to be in flight", () =>
      ctx.app.requestsInFlight().some((r) => r.method === "POST" && r.route === "/api/orders"),
    );

    ctx.app.drain();
    const early = await catalog.send("GET", "/api/products");
    expect(early.status).toBe(200);
    expect(routedByFastify, "answered early, before Fastify").toBe(routed);
    expect(early.headers.connection).toBe("close");
    await catalog.endedByServer();

    const ready = await health.send("GET", "/readyz");
    expect(ready.status).toBe(503);
    expect(ready.headers.connection).toBe("close");
    await health.endedByServer();

    expect(order.isOpen()).toBe(true);
    const inFlight = ctx.app.requestsInFlight().find((r) => r.route === "/api/orders");
    expect(inFlight).toMatchObject({ method: "POST", route: "/api/orders" });
    expect(inFlight?.reqId).toMatch(/^[0-9a-f]{32}$/);
    await locker.query("commit");
    const answer = await placed;
    expect(answer.status).toBe(201);
    expect(answer.headers.connection).toBe("close");
    expect(answer.headers["x-request-id"]).toBe(inFlight?.reqId);
    await order.endedByServer();
    await until("no request in flight", () => ctx.app.requestsInFlight().length === 0);
  });
});
