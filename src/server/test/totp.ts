import { createHmac } from "node:crypto";
import { eq } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { twoFactors, users } from "../db/schema/index.js";
import { ORIGIN, type TestUser } from "./users.js";

/**
 * RFC 6238 codes as an authenticator app computes them (SHA-1, 6 digits, 30 s), written here
 * apart from better-auth's so that a test checks the shop against the standard, not against itself.
 */
export function totpCode(base32Secret: string, at = Date.now()): string {
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
  let bits = "";
  for (const char of base32Secret.replace(/=+$/, "").toUpperCase())
    bits += alphabet.indexOf(char).toString(2).padStart(5, "0");
  const key = Buffer.from(bits.match(/.{8}/g)?.map((b) => Number.parseInt(b, 2)) ?? []);
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(Math.floor(at / 1000 / 30)));
  const mac = createHmac("sha1", key).update(counter).digest();
  const offset = (mac[mac.length - 1] ?? 0) & 0xf;
  const value = (mac.readUInt32BE(offset) & 0x7fffffff) % 1_000_000;
  return value.toString().padStart(6, "0");
}

/** The base32 secret of an otpauth:// URI. */
export const secretOf = (totpURI: string) => new URL(totpURI).searchParams.get("secret") ?? "";

/** Starts the app's enrolment (POST /two-factor/enable): its secret and backup codes, not yet on. */
export async function startApp(app: FastifyInstance, user: Pick<TestUser, "cookie" | "password">) {
  const res = await app.inject({
    method: "POST",
    url: "/api/auth/two-factor/enable",
    headers: { origin: ORIGIN, cookie: user.cookie },
    payload: { password: user.password },
  });
  if (res.statusCode !== 200) throw new Error(`enable: ${res.statusCode} ${res.body}`);
  const body = res.json<{ totpURI: string; backupCodes: string[] }>();
  return { secret: secretOf(body.totpURI), backupCodes: body.backupCodes, totpURI: body.totpURI };
}

/**
 * An app enrolled for the user, its first code confirmed in the database rather than by a request
 * (which would replace the user's session, as a real confirmation does): for tests that need an
 * enrolled account and its cookie as it was.
 */
export async function enrolApp(app: FastifyInstance, user: Pick<TestUser, "cookie" | "password" | "id">) {
  const started = await startApp(app, user);
  await app.db.update(twoFactors).set({ verified: true }).where(eq(twoFactors.userId, user.id));
  await app.db.update(users).set({ twoFactorEnabled: true }).where(eq(users.id, user.id));
  return started;
}
