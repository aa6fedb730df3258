import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { beforeAll, expect } from "vitest";
import { orderMessages } from "../../shared/messages/orders.js";
import { users } from "../db/schema/index.js";
import { setUpTestApp } from "./app.js";
import type { Shop } from "./payments.js";
import { pdfText } from "./pdf.js";
import { memoryMailer, type TestUser } from "./users.js";

/** The seller's address and tax ID the invoice and credit note tests print (name and email: the defaults). */
export const PAPER_SELLER = {
  SELLER_ADDRESS: "500 Market Street, San Francisco, CA 94105",
  SELLER_TAX_ID: "US-12-3456789",
};

/**
 * A shop for the invoice and credit note tests: PAPER_SELLER, an outbox that sends every tenth of
 * a second to `mailer` (the papers' attachments), alice (named `aliceName`, her address verified:
 * order mails go only to a verified one, features/mail/outbox.ts), bob and an admin.
 */
export function setUpPaperShop(aliceName: string) {
  const mailer = memoryMailer();
  const ctx = setUpTestApp(
    { ...PAPER_SELLER, MAIL_OUTBOX_INTERVAL_SECONDS: "0.1" },
    { rateLimit: { max: 10_000, windowSeconds: 60 }, mailer },
  );
  const alice = ctx.signedUpUser({ name: aliceName });
  const bob = ctx.signedUpUser({ name: "Bob Other" });
  const admin = ctx.signedUpAdmin();
  beforeAll(() =>
    ctx.database.db
      .update(users)
      .set({ emailVerified: true })
      .where(eq(users.email, alice.email.toLowerCase())),
  );
  return { ctx, mailer, alice, bob, admin };
}

/** A date as the papers print it, written apart from pdf.ts so that a change there shows. */
export const utcDay = new Intl.DateTimeFormat("en-US", { dateStyle: "medium", timeZone: "UTC" });

/** A paper's download (`url`) as `user`, or as a visitor (null). */
export function download(shop: Shop, user: TestUser | null, url: string) {
  return shop.app.inject({ method: "GET", url, headers: user ? { cookie: user.cookie } : {} });
}

/** The PDF's text on one line per line, runs of spaces (the layout's columns) made one. */
export async function pdfLines(pdf: Buffer): Promise<string[]> {
  return (await pdfText(pdf))
    .split("\n")
    .map((l) => l.replace(/\s+/g, " ").trim())
    .filter(Boolean);
}

/**
 * `bob` asks for the paper (its path for an order id: `pathOf`) of `orderId`, an order of another
 * customer, and of an order that does not exist: both are answered 404 problem+json, the same
 * answer but for the request's own id.
 */
export async function expectAnsweredAsMissing(
  shop: Shop,
  bob: TestUser,
  pathOf: (orderId: string) => string,
  orderId: string,
) {
  const other = await download(shop, bob, pathOf(orderId));
  const missing = await download(shop, bob, pathOf(randomUUID()));
  for (const res of [other, missing]) {
    expect(res.statusCode).toBe(404);
    expect(res.headers["content-type"]).toMatch(/^application\/problem\+json/);
    expect(res.json()).toMatchObject({ status: 404, detail: orderMessages.notFound });
  }
  const { requestId: _a, ...otherAnswer } = other.json();
  const { requestId: _b, ...missingAnswer } = missing.json();
  expect(otherAnswer).toEqual(missingAnswer);
}

/** The paper's download route (`file`: invoice.pdf, credit-note.pdf) is in the OpenAPI document as a PDF. */
export async function expectDocumentedAsPdf(shop: Shop, file: string, problems: string[]) {
  const doc = (await shop.app.inject({ url: "/api/docs/json" })).json();
  const get = doc.paths[`/api/orders/{id}/${file}`]?.get;
  expect(get?.responses?.["200"]?.content?.["application/pdf"]?.schema).toMatchObject({
    type: "string",
    format: "binary",
  });
  expect(Object.keys(get?.responses ?? {})).toEqual(expect.arrayContaining(problems));
}
