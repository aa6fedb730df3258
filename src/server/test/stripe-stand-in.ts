import { randomBytes } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import Stripe from "stripe";

/**
 * A local stand-in for the few Stripe API endpoints the shop calls, so the real SDK can be tested
 * without the internet: create a payment intent (form-encoded, with Idempotency-Key), retrieve
 * one (with `expand[]=latest_charge`), cancel one, refund one (with Idempotency-Key; one full refund
 * per charge, a second refused with `charge_already_refunded`) and list an intent's refunds. Test
 * helpers play the customer's part in Stripe.js and the staff's at Stripe's dashboard.
 */

interface StandInCharge {
  id: string;
  object: "charge";
  amount: number;
  currency: string;
  status: "succeeded";
  payment_intent: string;
  payment_method_details: { type: "card"; card: { brand: string; last4: string } };
  refunded: boolean;
  amount_refunded: number;
}

interface StandInRefund {
  id: string;
  object: "refund";
  amount: number;
  currency: string;
  charge: string;
  payment_intent: string;
  status: "succeeded";
  metadata: Record<string, string>;
  created: number;
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

/** A webhook event as Stripe sends it, about `object`. */
function eventJson(eventId: string, type: string, object: unknown): string {
  return JSON.stringify({
    id: eventId,
    object: "event",
    type,
    api_version: Stripe.API_VERSION,
    created: Math.floor(Date.now() / 1000),
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    data: { object },
  });
}

export interface StripeStandIn {
  /** Give this to STRIPE_API_URL. */
  url: string;
  secretKey: string;
  intents: Map<string, StandInIntent>;
  refunds: Map<string, StandInRefund>;
  requests: StandInRequest[];
  /** Adds an intent directly, as if another client of the same account had made it. */
  addIntent(
    fields: Pick<StandInIntent, "amount" | "currency" | "metadata"> & { status?: string },
  ): StandInIntent;
  /** The customer's card was accepted (what Stripe.js's confirmation does). */
  succeed(intentId: string, card?: { brand: string; last4: string }): StandInIntent;
  /** The customer's card was refused; the intent stays open, as with Stripe. */
  fail(intentId: string, message?: string): StandInIntent;
  /** Refunds a succeeded intent in full, as staff at Stripe's dashboard would. */
  refundAtDashboard(intentId: string): StandInRefund;
  /** The body of a webhook event about an intent, as Stripe would send it (unsigned). */
  eventPayload(type: string, intentId: string, eventId?: string): string;
  /** The body of `charge.refunded` (about the intent's charge) or `refund.*` (its first refund). */
  refundEventPayload(type: string, intentId: string, eventId?: string): string;
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
  const refunds = new Map<string, StandInRefund>();
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
    // A succeeded intent has its charge, as at Stripe (the one a refund takes back).
    if (intent.status === "succeeded") charge(intent, { brand: "visa", last4: "4242" });
    return intent;
  }

  /** The intent's card payment succeeded: its charge, and the intent succeeded. */
  function charge(intent: StandInIntent, card: { brand: string; last4: string }): StandInIntent {
    const made: StandInCharge = {
      id: id("ch"),
      object: "charge",
      amount: intent.amount,
      currency: intent.currency,
      status: "succeeded",
      payment_intent: intent.id,
      payment_method_details: { type: "card", card },
      refunded: false,
      amount_refunded: 0,
    };
    charges.set(made.id, made);
    Object.assign(intent, { status: "succeeded", latest_charge: made.id, last_payment_error: null });
    return intent;
  }

  function mustFind(intentId: string): StandInIntent {
    const intent = intents.get(intentId);
    if (!intent) throw new Error(`stand-in: no intent ${intentId}`);
    return intent;
  }

  /** Answers a replayed Idempotency-Key as Stripe does; true when it did. */
  function replayed(req: http.IncomingMessage, res: http.ServerResponse, body: string): boolean {
    const key = req.headers["idempotency-key"];
    const idempotencyKey = Array.isArray(key) ? key[0] : key;
    const previous = idempotencyKey ? idempotency.get(idempotencyKey) : undefined;
    if (!previous) return false;
    if (previous.body !== body) {
      stripeError(
        res,
        400,
        "idempotency_error",
        "Keys for idempotent requests can only be used with the same parameters they were first used with.",
      );
    } else {
      send(res, 200, previous.response, { "idempotent-replayed": "true" });
    }
    return true;
  }

  function remember(req: http.IncomingMessage, body: string, response: string) {
    const key = req.headers["idempotency-key"];
    const idempotencyKey = Array.isArray(key) ? key[0] : key;
    if (idempotencyKey) idempotency.set(idempotencyKey, { body, response });
  }

  function metadataOf(form: URLSearchParams): Record<string, string> {
    const metadata: Record<string, string> = {};
    for (const [name, value] of form) {
      const match = /^metadata\[(.+)\]$/.exec(name);
      if (match?.[1]) metadata[match[1]] = value;
    }
    return metadata;
  }

  function createIntent(req: http.IncomingMessage, res: http.ServerResponse, body: string) {
    if (replayed(req, res, body)) return;
    const form = new URLSearchParams(body);
    const amount = Number(form.get("amount"));
    const currency = form.get("currency");
    if (!Number.isInteger(amount) || amount < 50 || !currency) {
      return stripeError(res, 400, "invalid_request_error", "Missing or invalid amount or currency.");
    }
    const response = JSON.stringify(addIntent({ amount, currency, metadata: metadataOf(form) }));
    remember(req, body, response);
    send(res, 200, response);
  }

  const CANCELABLE = [
    "requires_payment_method",
    "requires_confirmation",
    "requires_action",
    "requires_capture",
  ];

  function noSuchIntent(res: http.ServerResponse, intentId: string) {
    return stripeError(
      res,
      404,
      "invalid_request_error",
      `No such payment_intent: '${intentId}'`,
      "resource_missing",
    );
  }

  function cancelIntent(res: http.ServerResponse, intentId: string) {
    const intent = intents.get(intentId);
    if (!intent) {
      return noSuchIntent(res, intentId);
    }
    if (!CANCELABLE.includes(intent.status)) {
      return stripeError(
        res,
        400,
        "invalid_request_error",
        `You cannot cancel this PaymentIntent because it has a status of ${intent.status}.`,
        "payment_intent_unexpected_state",
      );
    }
    intent.status = "canceled";
    send(res, 200, intent);
  }

  /** Refunds an intent's charge in full; Stripe refuses a second refund of a refunded charge. */
  function makeRefund(intentId: string, metadata: Record<string, string>): StandInRefund | string {
    const intent = intents.get(intentId);
    const charge = intent?.latest_charge ? charges.get(intent.latest_charge) : undefined;
    if (intent?.status !== "succeeded" || !charge) return "no_charge";
    if (charge.refunded) return "charge_already_refunded";
    const refund: StandInRefund = {
      id: id("re"),
      object: "refund",
      amount: charge.amount,
      currency: charge.currency,
      charge: charge.id,
      payment_intent: intent.id,
      status: "succeeded",
      metadata,
      created: Math.floor(Date.now() / 1000),
    };
    refunds.set(refund.id, refund);
    Object.assign(charge, { refunded: true, amount_refunded: charge.amount });
    return refund;
  }

  function createRefund(req: http.IncomingMessage, res: http.ServerResponse, body: string) {
    if (replayed(req, res, body)) return;
    const form = new URLSearchParams(body);
    const made = makeRefund(form.get("payment_intent") ?? "", metadataOf(form));
    if (made === "charge_already_refunded") {
      return stripeError(res, 400, "invalid_request_error", "Charge has already been refunded.", made);
    }
    if (typeof made === "string") {
      return stripeError(
        res,
        400,
        "invalid_request_error",
        "This PaymentIntent has no successful charge to refund.",
      );
    }
    const response = JSON.stringify(made);
    remember(req, body, response);
    send(res, 200, response);
  }

  function listRefunds(res: http.ServerResponse, query: URLSearchParams) {
    const intentId = query.get("payment_intent");
    const data = [...refunds.values()].filter((r) => !intentId || r.payment_intent === intentId);
    send(res, 200, { object: "list", data, has_more: false, url: "/v1/refunds" });
  }

  function retrieveIntent(res: http.ServerResponse, intentId: string, query: URLSearchParams) {
    const intent = intents.get(intentId);
    if (!intent) {
      return noSuchIntent(res, intentId);
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
      const cancel = /^\/v1\/payment_intents\/([^/]+)\/cancel$/.exec(url.pathname);
      if (req.method === "POST" && cancel?.[1]) return cancelIntent(res, decodeURIComponent(cancel[1]));
      if (req.method === "POST" && url.pathname === "/v1/refunds") return createRefund(req, res, body);
      if (req.method === "GET" && url.pathname === "/v1/refunds") return listRefunds(res, url.searchParams);
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
    refunds,
    requests,
    addIntent,
    succeed(intentId, card = { brand: "visa", last4: "4242" }) {
      const intent = mustFind(intentId);
      // Stripe.js cannot confirm a cancelled intent.
      if (intent.status === "canceled") throw new Error(`stand-in: ${intentId} is canceled`);
      return charge(intent, card);
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
      return eventJson(eventId, type, mustFind(intentId));
    },
    refundAtDashboard(intentId) {
      const made = makeRefund(intentId, {});
      if (typeof made === "string") throw new Error(`stand-in: cannot refund ${intentId}: ${made}`);
      return made;
    },
    refundEventPayload(type, intentId, eventId = id("evt")) {
      const intent = mustFind(intentId);
      const charge = intent.latest_charge ? charges.get(intent.latest_charge) : undefined;
      const refund = [...refunds.values()].find((r) => r.payment_intent === intentId);
      const object = type === "charge.refunded" ? charge : refund;
      if (!object) throw new Error(`stand-in: nothing for ${type} on ${intentId}`);
      return eventJson(eventId, type, object);
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
