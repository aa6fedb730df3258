import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { AUTH_POST_PATHS, AUTH_ROUTES, authPostPaths, setUpRouteWorld } from "../route-cases.js";
import { newSession, signUp } from "../users.js";
import {
  expectNoLeak,
  hostileBodies,
  hostileRunCounts,
  NOT_FINGERPRINTED,
  RUNS,
  refusedChangingNothing,
  SEED,
  sendHostile,
} from "./hostile.js";

/**
 * ASVS V5 on better-auth's POST endpoints, the ones the shop serves (with their own customer, who
 * may end their own session) and the ones it closes: RUNS hostile requests each, no 5xx or
 * internals, and a refused request changes no row.
 */

const world = setUpRouteWorld();
const { tally, perTarget: perPath } = hostileRunCounts("hostile input (better-auth)", "endpoints");

const isSignedIn = async (cookie: string) =>
  (await world.ctx.app.inject({ url: "/api/me", headers: { cookie } })).statusCode === 200;

describe("hostile input on better-auth's endpoints", () => {
  for (const path of AUTH_POST_PATHS) {
    it(`POST /api/auth${path}: ${RUNS} hostile requests, no 5xx or internals, refusals change nothing`, async () => {
      const entry = AUTH_ROUTES[path];
      expect(entry, `add ${path} to AUTH_ROUTES`).toBeDefined();
      if (!entry) return;
      const self = await signUp(world.ctx.app, { name: "Hostile Sender" });
      const base = await entry.prepare(world, self);
      const baseBody = (base.payload ?? {}) as Record<string, unknown>;
      let cookie = entry.session ? self.cookie : undefined;
      let current = await world.snapshot(NOT_FINGERPRINTED);

      await fc.assert(
        fc.asyncProperty(hostileBodies(baseBody), async (body) => {
          const label = `${path} (${body.note})`;
          const res = await sendHostile(
            world,
            { method: "POST", url: base.url, headers: cookie ? { cookie } : {} },
            body,
          );
          perPath[path] = (perPath[path] ?? 0) + 1;
          if (await refusedChangingNothing(world, res, label, tally, current)) return;
          // An accepted sign-out or revocation ends the session the next request needs.
          if (cookie && !(await isSignedIn(cookie))) cookie = await newSession(world.ctx.app, self.id);
          current = await world.snapshot(NOT_FINGERPRINTED);
        }),
        { seed: SEED, numRuns: RUNS },
      );
      expect(perPath[path]).toBeGreaterThanOrEqual(RUNS);
    });
  }

  it(`every endpoint the shop closes: ${RUNS} hostile requests each, all 404, nothing changed`, async () => {
    const closed = authPostPaths(world).filter((path) => !AUTH_POST_PATHS.includes(path));
    expect(closed.length).toBeGreaterThan(5);
    const self = await signUp(world.ctx.app, { name: "Closed Door" });
    const before = await world.snapshot(NOT_FINGERPRINTED);
    for (const path of closed) {
      const url = `/api/auth${path.replace(/:[a-zA-Z]+/g, "google")}`;
      await fc.assert(
        fc.asyncProperty(
          hostileBodies({ userId: self.id, token: "x", providerId: "google" }),
          async (body) => {
            const res = await sendHostile(
              world,
              { method: "POST", url, headers: { cookie: self.cookie } },
              body,
            );
            expectNoLeak(res, `${path} (${body.note})`, tally);
            perPath[path] = (perPath[path] ?? 0) + 1;
            tally.refused += 1;
            // Refused before better-auth sees it; a body the parser cannot read is a 400 or 413 first.
            expect([400, 404, 413]).toContain(res.statusCode);
          },
        ),
        { seed: SEED, numRuns: RUNS },
      );
    }
    expect(await world.snapshot(NOT_FINGERPRINTED)).toEqual(before);
  });
});
