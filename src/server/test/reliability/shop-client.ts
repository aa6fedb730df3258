import { readdirSync, readFileSync } from "node:fs";
import http from "node:http";
import path from "node:path";
import { until } from "../until.js";
import { cookieHeader, uniqueEmail } from "../users.js";
import { TEST_DATA_DIR } from "./figures.js";

export interface HttpReply {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
  /** Milliseconds from sending the request to the end of the answer. */
  ms: number;
  json<T>(): T;
}

export interface Customer {
  email: string;
  cookie: string;
}

export const ORDER_DETAILS = { address: "1 Loop Road, Austin", phone: "5550123" };

/**
 * Talks to a listening shop over real TCP connections of its own (node:http with keep-alive), so a
 * test can drop every connection to a shop it killed and start afresh with a new client.
 */
export class ShopClient {
  private readonly agent = new http.Agent({ keepAlive: true });

  /** `origin` is the shop's PUBLIC_URL, sent as Origin on every request as a browser would. */
  constructor(
    readonly base: string,
    readonly origin = base,
  ) {}

  request(
    method: string,
    path: string,
    options: { cookie?: string; body?: unknown; headers?: Record<string, string>; timeoutMs?: number } = {},
  ): Promise<HttpReply> {
    const payload = options.body === undefined ? undefined : Buffer.from(JSON.stringify(options.body));
    const timeoutMs = options.timeoutMs ?? 30_000;
    return new Promise((resolve, reject) => {
      const started = performance.now();
      const req = http.request(
        new URL(path, this.base),
        {
          method,
          agent: this.agent,
          headers: {
            origin: this.origin,
            ...(options.cookie ? { cookie: options.cookie } : {}),
            ...(payload ? { "content-type": "application/json", "content-length": payload.length } : {}),
            ...options.headers,
          },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on("data", (c: Buffer) => chunks.push(c));
          res.on("error", reject);
          res.on("end", () => {
            const text = Buffer.concat(chunks).toString("utf8");
            resolve({
              status: res.statusCode ?? 0,
              headers: res.headers,
              text,
              ms: performance.now() - started,
              json: <T>() => JSON.parse(text) as T,
            });
          });
        },
      );
      req.setTimeout(timeoutMs, () =>
        req.destroy(new Error(`${method} ${path}: no answer within ${timeoutMs} ms`)),
      );
      req.on("error", reject);
      req.end(payload);
    });
  }

  async signUp(name: string): Promise<Customer> {
    const email = uniqueEmail(name.toLowerCase().replaceAll(" ", "."));
    const res = await this.request("POST", "/api/auth/sign-up/email", {
      body: { name, email, password: "Passw0rd!", phone: "+1 555 0199" },
    });
    if (res.status !== 200) throw new Error(`sign-up failed: ${res.status} ${res.text}`);
    const customer = { email, cookie: cookieHeader(res.headers["set-cookie"]) };
    await this.verify(customer);
    return customer;
  }

  /**
   * Follows the verification link the shop mailed to the customer (booking needs it), as the
   * customer would: the test shops have no SMTP_URL, so the mail is in the outbox of whichever
   * instance answered the sign-up, under .test-data (shop-process.ts), named after the address.
   */
  async verify(customer: Customer): Promise<void> {
    let link: string | undefined;
    await until(`the verification mail to ${customer.email}`, () => {
      link = verificationLinkInOutboxes(customer.email);
      return link !== undefined;
    });
    const url = new URL(link ?? "");
    const res = await this.request("GET", `${url.pathname}${url.search}`, { cookie: customer.cookie });
    if (res.status !== 302) throw new Error(`verification failed: ${res.status} ${res.text}`);
  }

  placeOrder(customer: Customer, productId: string, quantity: number, headers: Record<string, string> = {}) {
    return this.request("POST", "/api/orders", {
      cookie: customer.cookie,
      body: { productId, quantity, ...ORDER_DETAILS },
      headers,
    });
  }

  close() {
    this.agent.destroy();
  }
}

/** Signs up `count` customers over HTTP, a few at a time (each sign-up hashes a password). */
export async function signUpCustomers(client: ShopClient, count: number): Promise<Customer[]> {
  const customers: Customer[] = new Array(count);
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const i = next++;
      customers[i] = await client.signUp(`Buyer ${i}`);
    }
  };
  await Promise.all(Array.from({ length: 4 }, worker));
  return customers;
}

/** The verification link in a dev-outbox mail to `email` in any test shop's data folder, if one is there. */
function verificationLinkInOutboxes(email: string): string | undefined {
  let places: string[];
  try {
    places = readdirSync(TEST_DATA_DIR);
  } catch {
    return undefined;
  }
  for (const place of places) {
    const outbox = path.join(TEST_DATA_DIR, place, "outbox");
    let files: string[];
    try {
      files = readdirSync(outbox);
    } catch {
      continue;
    }
    for (const file of files.filter((f) => f.endsWith(`-${email}.json`))) {
      const mail = JSON.parse(readFileSync(path.join(outbox, file), "utf8")) as { text?: string };
      const link = mail.text?.match(/https?:\/\/\S+\/api\/auth\/verify-email\S*/)?.[0];
      if (link) return link;
    }
  }
  return undefined;
}
