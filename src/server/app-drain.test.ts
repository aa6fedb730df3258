import net from "node:net";
import type { RouteOptions } from "fastify";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MIN_ORDER_QUANTITY } from "../shared/constants.js";
import { setUpTestApp } from "./test/app.js";
import { stockedProduct } from "./test/products.js";
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

interface Answer {
  status: number;
  headers: Record<string, string>;
}

/** A kept-alive connection of our own: requests one after another, and whether the server ended it. */
function connection() {
  const socket = net.connect(port, "127.0.0.1");
  let received = "";
  let endedByServer = false;
  socket.on("data", (chunk: Buffer) => {
    received += chunk.toString("latin1");
  });
  socket.on("end", () => {
    endedByServer = true;
  });
  socket.on("error", () => {});
  /** The answer at the start of `received`, once all of it has come (they carry a Content-Length). */
  const complete = (): Answer | undefined => {
    const headEnd = received.indexOf("\r\n\r\n");
    if (headEnd < 0) return undefined;
    const [statusLine = "", ...lines] = received.slice(0, headEnd).split("\r\n");
    const headers = Object.fromEntries(
      lines.map((l) => [l.slice(0, l.indexOf(":")).toLowerCase(), l.slice(l.indexOf(":") + 1).trim()]),
    );
    if (received.length - headEnd - 4 < Number(headers["content-length"] ?? 0)) return undefined;
    return { status: Number(statusLine.split(" ")[1]), headers };
  };
  return {
    async send(
      method: string,
      path: string,
      headers: Record<string, string> = {},
      body = "",
    ): Promise<Answer> {
      received = "";
      const lines = Object.entries({ host: "127.0.0.1", ...headers }).map(([k, v]) => `${k}: ${v}\r\n`);
      if (body) lines.push(`content-length: ${Buffer.byteLength(body)}\r\n`);
      socket.write(`${method} ${path} HTTP/1.1\r\n${lines.join("")}\r\n${body}`);
      let answer: Answer | undefined;
      await until(`the answer to ${method} ${path}`, () => {
        answer = complete();
        return answer !== undefined || endedByServer;
      });
      if (!answer) throw new Error(`The server closed the connection without answering ${method} ${path}`);
      return answer;
    },
    /** Resolves once the server has ended the connection. */
    endedByServer: () => until("the server to end the connection", () => endedByServer),
    isOpen: () => !endedByServer,
    destroy: () => socket.destroy(),
  };
}

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
    const catalog = connection();
    const health = connection();
    const order = connection();
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
