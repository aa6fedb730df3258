import { eq } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { twoFactors, users } from "../db/schema/index.js";
import { totpCode } from "./totp-code.js";
import { ORIGIN, type TestUser } from "./users.js";

export { totpCode };

/** The base32 secret of an otpauth:// URI. */
const secretOf = (totpURI: string) => new URL(totpURI).searchParams.get("secret") ?? "";

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
