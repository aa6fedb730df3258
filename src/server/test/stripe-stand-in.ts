import { randomBytes } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import Stripe from "stripe";

/**
 * A local stand-in for the few Stripe API endpoints the shop calls, so the real SDK can be tested
 * without the internet: create a payment intent (form-encoded, with Idempotency-Key) and retrieve
 * one (with `expand[]=latest_charge`). Test helpers play the customer's part in Stripe.js.
 */

interface StandInCharge {
  id: string;
  object: "charge";
  amount: number;
  currency: string;
  status: "succeeded";
  payment_intent: string;
  payment_method_details: { type: "card"; card: { brand: string; last4: string } };
}

interface StandInIntent {
  id: string;
  object: "payment_intent";
  amount: number;
  currency: string;
  status: string;
  client_secret: string;
  metadata: Record<string, string>;
  latest_charge: string | null;
  last_payment_error: { code: string; message: string } | null;
  created: number;
  livemode: false;
}

interface StandInRequest {
  method: string;
  path: string;
  idempotencyKey: string | undefined;
}

export interface StripeStandIn {
  /** Give this to STRIPE_API_URL. */
  url: string;
  secretKey: string;
  intents: Map<string, StandInIntent>;
  requests: StandInRequest[];
  /** Adds an intent directly, as if another client of the same account had made it. */
  addIntent(
    fields: Pick<StandInIntent, "amount" | "currency" | "metadata"> & { status?: string },
  ): StandInIntent;
  /** The customer's card was accepted (what Stripe.js's confirmation does). */
  succeed(intentId: string, card?: { brand: string; last4: string }): StandInIntent;
  /** The customer's card was refused; the intent stays open, as with Stripe. */
  fail(intentId: string, message?: string): StandInIntent;
  /** The body of a webhook event about an intent, as Stripe would send it (unsigned). */
  eventPayload(type: string, intentId: string, eventId?: string): string;
  close(): Promise<void>;
}

const id = (prefix: string) => `${prefix}_${randomBytes(12).toString("hex")}`;

function send(res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  res.writeHead(status, { "content-type": "application/json", "request-id": id("req"), ...headers });
  res.end(typeof body === "string" ? body : JSON.stringify(body));
}

function stripeError(res: http.ServerResponse, status: number, type: string, message: string, code?: string) {
  send(res, status, { error: { type, message, ...(code ? { code } : {}) } });
}

async function readBody(req: http.IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

export async function startStripeStandIn(secretKey = "sk_test_gearhouse_stand_in"): Promise<StripeStandIn> {
  const intents = new Map<string, StandInIntent>();
  const charges = new Map<string, StandInCharge>();
  const requests: StandInRequest[] = [];
  // Stripe replays the first response for a key, and refuses the key with different parameters.
  const idempotency = new Map<string, { body: string; response: string }>();

  function addIntent(
    fields: Pick<StandInIntent, "amount" | "currency" | "metadata"> & { status?: string },
  ): StandInIntent {
    const intentId = id("pi");
    const intent: StandInIntent = {
      id: intentId,
      object: "payment_intent",
      amount: fields.amount,
      currency: fields.currency,
      status: fields.status ?? "requires_payment_method",
      client_secret: `${intentId}_secret_${randomBytes(12).toString("hex")}`,
      metadata: fields.metadata,
      latest_charge: null,
      last_payment_error: null,
      created: Math.floor(Date.now() / 1000),
      livemode: false,
    };
    intents.set(intentId, intent);
    return intent;
  }

  function mustFind(intentId: string): StandInIntent {
    const intent = intents.get(intentId);
    if (!intent) throw new Error(`stand-in: no intent ${intentId}`);
    return intent;
  }

  function createIntent(req: http.IncomingMessage, res: http.ServerResponse, body: string) {
    const key = req.headers["idempotency-key"];
    const idempotencyKey = Array.isArray(key) ? key[0] : key;
    if (idempotencyKey) {
      const previous = idempotency.get(idempotencyKey);
      if (previous && previous.body !== body) {
        return stripeError(
          res,
          400,
          "idempotency_error",
          "Keys for idempotent requests can only be used with the same parameters they were first used with.",
        );
      }
      if (previous) return send(res, 200, previous.response, { "idempotent-replayed": "true" });
    }
    const form = new URLSearchParams(body);
    const amount = Number(form.get("amount"));
    const currency = form.get("currency");
    if (!Number.isInteger(amount) || amount < 50 || !currency) {
      return stripeError(res, 400, "invalid_request_error", "Missing or invalid amount or currency.");
    }
    const metadata: Record<string, string> = {};
    for (const [name, value] of form) {
      const match = /^metadata\[(.+)\]$/.exec(name);
      if (match?.[1]) metadata[match[1]] = value;
    }
    const response = JSON.stringify(addIntent({ amount, currency, metadata }));
    if (idempotencyKey) idempotency.set(idempotencyKey, { body, response });
    send(res, 200, response);
  }

  function retrieveIntent(res: http.ServerResponse, intentId: string, query: URLSearchParams) {
    const intent = intents.get(intentId);
    if (!intent) {
      return stripeError(
        res,
        404,
        "invalid_request_error",
        `No such payment_intent: '${intentId}'`,
        "resource_missing",
      );
    }
    const expand = [...query].filter(([name]) => name.startsWith("expand")).map(([, value]) => value);
    const charge = expand.includes("latest_charge") && intent.latest_charge;
    send(res, 200, charge ? { ...intent, latest_charge: charges.get(charge) } : intent);
  }

  const server = http.createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? "/", "http://stand-in");
      const key = req.headers["idempotency-key"];
      requests.push({
        method: req.method ?? "",
        path: url.pathname,
        idempotencyKey: Array.isArray(key) ? key[0] : key,
      });
      const body = await readBody(req);
      if (req.headers.authorization !== `Bearer ${secretKey}`) {
        return stripeError(res, 401, "invalid_request_error", "Invalid API Key provided.");
      }
      if (req.method === "POST" && url.pathname === "/v1/payment_intents") {
        return createIntent(req, res, body);
      }
      const retrieve = /^\/v1\/payment_intents\/([^/]+)$/.exec(url.pathname);
      if (req.method === "GET" && retrieve?.[1]) {
        return retrieveIntent(res, decodeURIComponent(retrieve[1]), url.searchParams);
      }
      stripeError(
        res,
        404,
        "invalid_request_error",
        `Unrecognized request URL (${req.method}: ${url.pathname}).`,
      );
    })().catch((error: unknown) => {
      stripeError(res, 500, "api_error", String(error));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    secretKey,
    intents,
    requests,
    addIntent,
    succeed(intentId, card = { brand: "visa", last4: "4242" }) {
      const intent = mustFind(intentId);
      const charge: StandInCharge = {
        id: id("ch"),
        object: "charge",
        amount: intent.amount,
        currency: intent.currency,
        status: "succeeded",
        payment_intent: intent.id,
        payment_method_details: { type: "card", card },
      };
      charges.set(charge.id, charge);
      Object.assign(intent, { status: "succeeded", latest_charge: charge.id, last_payment_error: null });
      return intent;
    },
    fail(intentId, message = "Your card was declined.") {
      const intent = mustFind(intentId);
      Object.assign(intent, {
        status: "requires_payment_method",
        last_payment_error: { code: "card_declined", message },
      });
      return intent;
    },
    eventPayload(type, intentId, eventId = id("evt")) {
      return JSON.stringify({
        id: eventId,
        object: "event",
        type,
        api_version: Stripe.API_VERSION,
        created: Math.floor(Date.now() / 1000),
        livemode: false,
        pending_webhooks: 1,
        request: { id: null, idempotency_key: null },
        data: { object: mustFind(intentId) },
      });
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
