import { eq } from "drizzle-orm";
import { SMTPServer } from "smtp-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../../app.js";
import { createDatabase } from "../../db/client.js";
import { mailOutbox, users } from "../../db/schema/index.js";
import { createMailer } from "../../lib/mailer.js";
import { setUpTestApp, testConfig } from "../../test/app.js";
import { freePort } from "../../test/free-port.js";
import { placeOrder } from "../../test/payments.js";
import { until } from "../../test/until.js";
import { memoryMailer, signUp } from "../../test/users.js";
import { type OutboxOptions, sendDueMails } from "./outbox.js";

/**
 * A mail server that stalls (issue 28, "Mail sending that cannot starve the pool"): it takes each
 * message and then holds its answer until the test lets it go, as a server that stalls for 30 s
 * would, without the test waiting on a clock. Meanwhile a shop whose pool has POOL connections,
 * with more mails than that stalled at the mail server, still answers lists and bookings.
 */
const POOL = 3;
const STALLED = POOL + 2;

const ctx = setUpTestApp();

/** The stalling server: the Message-ID of every message it took, and how many wait for an answer. */
const smtp = {
  port: 0,
  waiting: 0,
  received: [] as string[],
  letGo: () => {},
  server: undefined as SMTPServer | undefined,
};

beforeAll(async () => {
  const answered = new Promise<void>((resolve) => {
    smtp.letGo = resolve;
  });
  smtp.server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onData(stream, _session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", () => {
        const id = /^Message-ID:\s*(<[^>]+>)/im.exec(Buffer.concat(chunks).toString("utf8"))?.[1] ?? "";
        smtp.waiting++;
        void answered.then(() => {
          smtp.received.push(id);
          smtp.waiting--;
          callback();
        });
      });
    },
  });
  smtp.port = await freePort();
  const server = smtp.server;
  await new Promise<void>((resolve) => server.listen(smtp.port, "127.0.0.1", resolve));
});
afterAll(async () => {
  smtp.letGo();
  await new Promise<void>((resolve) => smtp.server?.close(() => resolve()) ?? resolve());
});

describe("order mails beside a mail server that stalls", () => {
  it("hold no connection while it stalls: the shop answers lists and bookings, the mails go once it answers, none twice", async () => {
    const customer = await signUp(ctx.app, { name: "Stella Stalled" });
    await ctx.database.db
      .update(users)
      .set({ emailVerified: true })
      .where(eq(users.email, customer.email.toLowerCase()));
    // Whatever was due before goes elsewhere: the stalled mails are this test's own.
    await sendDueMails({ ...base(memoryMailer()), db: ctx.database.db }, { limit: 10_000 });
    const orders = [];
    for (let i = 0; i < STALLED; i++) orders.push(await placeOrder(ctx, customer));

    // The shop, on a pool of POOL connections, sending through the stalling server.
    const config = testConfig({ SMTP_URL: `smtp://127.0.0.1:${smtp.port}` });
    const database = createDatabase(ctx.url, { max: POOL });
    const shop = await buildApp(config, database, { logger: false });
    await shop.ready();
    try {
      const mailer = createMailer(config, () => {});
      // As many senders as mails (as many instances would be, or one sending them side by side).
      const senders = orders.map(() => sendDueMails({ ...base(mailer), db: database.db }, { limit: 1 }));
      await until("every mail taken by the mail server and not answered", () => smtp.waiting === STALLED);

      // The pool is not held: lists and a booking are answered at once, no query waits.
      const list = await shop.inject({
        method: "GET",
        url: "/api/orders/mine",
        headers: { cookie: customer.cookie },
      });
      expect(list.statusCode).toBe(200);
      const booked = await placeOrder({ app: shop, database }, customer);
      expect(booked.status).toBe("pending");
      expect(database.pool.waitingCount).toBe(0);

      // The server answers: each mail is marked sent by its sender, and none goes twice.
      smtp.letGo();
      expect(await Promise.all(senders)).toEqual(orders.map(() => ({ sent: 1, failed: 0 })));
      expect(await sendDueMails({ ...base(mailer), db: database.db })).toEqual({ sent: 1, failed: 0 });
      expect(await sendDueMails({ ...base(mailer), db: database.db })).toEqual({ sent: 0, failed: 0 });
      expect(smtp.received).toHaveLength(STALLED + 1);
      expect(new Set(smtp.received).size).toBe(STALLED + 1);
      for (const order of [...orders, booked]) {
        const [row] = await ctx.database.db.select().from(mailOutbox).where(eq(mailOutbox.orderId, order.id));
        expect(row?.sentAt, order.id).toBeInstanceOf(Date);
        expect(smtp.received).toContain(`<mail-${row?.id}@localhost>`);
      }
    } finally {
      await shop.close();
      await database.close();
    }
  });
});

function base(mailer: OutboxOptions["mailer"]): Omit<OutboxOptions, "db"> {
  return { mailer, publicUrl: "http://localhost:3000", maxAttempts: 3 };
}
