import { randomUUID } from "node:crypto";
import { buildApp } from "../../app.js";
import { createDatabase } from "../../db/client.js";
import { users } from "../../db/schema/index.js";
import { testConfig } from "../app.js";
import { newSession, uniqueEmail } from "../users.js";
import type { Customer } from "./shop-client.js";
import { AUTH_SECRET } from "./shop-process.js";

/**
 * `count` customers signed in to the shops on this database (they share AUTH_SECRET), each with a
 * session made the way sign-in makes one. Signing them up over HTTP would spend `count` password
 * hashes, slow on purpose, on what the crowd tests do not examine; sign-up and sessions across
 * instances are tested with real sign-ups.
 */
export async function signedInCrowd(databaseUrl: string, count: number): Promise<Customer[]> {
  const database = createDatabase(databaseUrl, { max: 2 });
  const app = await buildApp(testConfig({ AUTH_SECRET }), database, { logger: false });
  try {
    const rows = await database.db
      .insert(users)
      .values(
        Array.from({ length: count }, (_, i) => ({
          id: randomUUID(),
          name: `Buyer ${i}`,
          email: uniqueEmail("buyer"),
          phone: "+1 555 0199",
          // Booking needs a verified email; the crowd's addresses are taken as proved.
          emailVerified: true,
        })),
      )
      .returning({ id: users.id, email: users.email });
    const customers: Customer[] = [];
    for (const row of rows) customers.push({ email: row.email, cookie: await newSession(app, row.id) });
    return customers;
  } finally {
    await app.close();
    await database.close();
  }
}
