import fc from "fast-check";
import type { LightMyRequestResponse } from "fastify";
import { afterAll, expect } from "vitest";
import type { Method, RouteWorld } from "../route-cases.js";
import { ORIGIN } from "../users.js";

/**
 * Hostile input for the security suite (ASVS V5): generators of bodies, path ids and query strings
 * that are wrong in every way a client can make them, and a runner that sends them to one route and
 * checks the answers. Seeded, so a failure replays exactly.
 */

export const SEED = 20_260_006;
export const RUNS = 200;

/** Attack strings from the usual corpora: SQL, script, template, path, header and Unicode tricks. */
const CORPUS = [
  "' OR '1'='1",
  '\'; DROP TABLE "order"; --',
  '" OR 1=1 --',
  "1; SELECT pg_sleep(10)",
  "%' AND 1=1 --",
  "\\",
  "%_%",
  "$1",
  "<script>alert(1)</script>",
  "<img src=x onerror=alert(1)>",
  '"><svg onload=alert(1)>',
  "javascript:alert(1)",
  "{{7*7}}",
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a template-injection probe, sent as plain text
  "${7*7}",
  "<!--",
  "]]>",
  "../../../../etc/passwd",
  "..\\..\\windows\\win.ini",
  "/api/images/../../etc/passwd",
  "\r\nSet-Cookie: evil=1",
  "\u202Eevil",
  "\uFEFFbom",
  "𝔘𝔫𝔦𝔠𝔬𝔡𝔢 🛒",
  "Ω≈ç√∫",
  "__proto__",
  "constructor",
  "NaN",
  "Infinity",
  "-1",
  "null",
  "true",
  "[]",
  "{}",
  " ",
];
/** Texts PostgreSQL cannot store as sent: a NUL, and halves of surrogate pairs. */
const UNSTORABLE = ["\u0000", "a\u0000b", "\ud800", "x\udfff", "\ud83d"];

const anyCodeUnit = fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c));

const hostileString: fc.Arbitrary<string> = fc.oneof(
  { arbitrary: fc.constantFrom(...CORPUS, ...UNSTORABLE), weight: 6 },
  { arbitrary: fc.string({ unit: "binary", maxLength: 40 }), weight: 3 },
  { arbitrary: fc.string({ unit: anyCodeUnit, maxLength: 20 }), weight: 2 },
  { arbitrary: fc.constantFrom(1_000, 100_000, 900_000).map((n) => "x".repeat(n)), weight: 1 },
);

const hostileNumber: fc.Arbitrary<number> = fc.oneof(
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.constantFrom(
    -1,
    0,
    -0,
    0.5,
    9.5,
    10.000001,
    1e308,
    -1e308,
    2 ** 31,
    2 ** 53 + 2,
    2 ** 63,
    -(2 ** 31) - 1,
  ),
);

/** One JSON value as text, so bodies nested far too deep never go through JSON.stringify. */
const hostileJson: fc.Arbitrary<string> = fc.oneof(
  { arbitrary: hostileString.map((s) => JSON.stringify(s)), weight: 8 },
  { arbitrary: hostileNumber.map((n) => JSON.stringify(n)), weight: 4 },
  // Numbers JavaScript cannot hold: Infinity, lost precision, beyond 64 bits.
  {
    arbitrary: fc.constantFrom("1e999", "-1e999", "1.00000000000000000001", "123456789012345678901234567890"),
    weight: 1,
  },
  { arbitrary: fc.constantFrom("true", "false", "null", "[]", "{}"), weight: 2 },
  { arbitrary: fc.array(hostileString, { maxLength: 3 }).map((a) => JSON.stringify(a)), weight: 1 },
  {
    arbitrary: fc.dictionary(hostileString, hostileString, { maxKeys: 3 }).map((d) => JSON.stringify(d)),
    weight: 1,
  },
  {
    arbitrary: fc
      .tuple(fc.constantFrom("[", '{"a":'), fc.integer({ min: 100, max: 100_000 }))
      .map(([open, depth]) => `${open.repeat(depth)}1${(open === "[" ? "]" : "}").repeat(depth)}`),
    weight: 1,
  },
);

/** Keys that poison prototypes when a parser or a spread copies them without care. */
const POISON = [
  '"__proto__":{"role":"admin","paid":true}',
  '"constructor":{"prototype":{"role":"admin"}}',
  '"__proto__":null',
  '"prototype":{"isAdmin":true}',
];
/** Bytes that are not UTF-8: a lone continuation, overlong forms, a UTF-16 surrogate, a cut sequence. */
const BAD_UTF8 = [
  [0xff],
  [0xc0, 0xaf],
  [0xe0, 0x80, 0xaf],
  [0xed, 0xa0, 0x80],
  [0xf8, 0x88, 0x80, 0x80, 0x80],
  [0xe2, 0x82],
];

export type HostileBody =
  | { kind: "json"; text: string; note: string }
  | { kind: "bytes"; bytes: Uint8Array; contentType: string; note: string };

/** The JSON object text of `base` with one field's value replaced by raw JSON text. */
function withField(base: Record<string, unknown>, field: string, json: string): string {
  const parts = Object.entries(base).map(
    ([k, v]) => `${JSON.stringify(k)}:${k === field ? json : JSON.stringify(v)}`,
  );
  if (!(field in base)) parts.push(`${JSON.stringify(field)}:${json}`);
  return `{${parts.join(",")}}`;
}

/** Hostile variations of a valid JSON body: a wrong field, poisoned keys, a wrong body, bad bytes. */
export function hostileBodies(base: Record<string, unknown>): fc.Arbitrary<HostileBody> {
  const fields = Object.keys(base);
  const ofFields = fields.length > 0 ? fields : ["value"];
  const baseText = JSON.stringify(base);
  const encode = (text: string) => new TextEncoder().encode(text);
  return fc.oneof(
    {
      arbitrary: fc.tuple(fc.constantFrom(...ofFields), hostileJson).map(
        ([field, json]): HostileBody => ({
          kind: "json",
          text: withField(base, field, json),
          note: `field ${field}`,
        }),
      ),
      weight: 10,
    },
    {
      arbitrary: fc.tuple(fc.constantFrom(...ofFields), hostileJson, hostileJson).map(
        ([field, a, b]): HostileBody => ({
          kind: "json",
          text: withField(base, field, `[${a},${b}]`),
          note: `array in ${field}`,
        }),
      ),
      weight: 1,
    },
    {
      arbitrary: fc.constantFrom(...POISON).map(
        (extra): HostileBody => ({
          kind: "json",
          text: baseText === "{}" ? `{${extra}}` : `${baseText.slice(0, -1)},${extra}}`,
          note: "poisoned key",
        }),
      ),
      weight: 2,
    },
    {
      arbitrary: hostileJson.map((text): HostileBody => ({ kind: "json", text, note: "whole body" })),
      weight: 3,
    },
    {
      arbitrary: fc
        .tuple(fc.constantFrom(...ofFields), fc.constantFrom(...BAD_UTF8))
        .map(([field, bad]): HostileBody => {
          const marker = "\u0001BAD\u0001";
          const text = withField(base, field, JSON.stringify(`a${marker}b`));
          const [head = "", tail = ""] = text.split(marker);
          return {
            kind: "bytes",
            bytes: new Uint8Array([...encode(head), ...bad, ...encode(tail)]),
            contentType: "application/json",
            note: `invalid UTF-8 in ${field}`,
          };
        }),
      weight: 2,
    },
    {
      arbitrary: fc.uint8Array({ maxLength: 300 }).map(
        (bytes): HostileBody => ({
          kind: "bytes",
          bytes,
          contentType: "application/json",
          note: "random bytes",
        }),
      ),
      weight: 1,
    },
    {
      arbitrary: fc.constant<HostileBody>({
        kind: "bytes",
        bytes: encode(`{"x":"${"y".repeat(1_100_000)}"}`),
        contentType: "application/json",
        note: "over the 1 MB body limit",
      }),
      weight: 1,
    },
  );
}

/** Percent-encodes every byte of the text's UTF-8 form (a lone surrogate has none: it goes as U+FFFD). */
const percentEncode = (text: string) =>
  [...new TextEncoder().encode(text)].map((b) => `%${b.toString(16).padStart(2, "0")}`).join("");

/** Path ids: wrong shapes, encodings the router must decode safely, lengths past its limit. */
export const hostileId: fc.Arbitrary<string> = fc.oneof(
  hostileString.filter((s) => s.length < 500).map(percentEncode),
  fc.constantFrom("%", "%zz", "%00", "%C0%AF", "%ED%A0%80", "..", "%2e%2e%2f", "0", "-1", "x".repeat(300)),
  fc.uuid().map((u) => u.toUpperCase()),
);

/** Query strings built from hostile values under the route's own parameter names (and others). */
export function hostileQuery(names: string[]): fc.Arbitrary<string> {
  const pair = fc
    .tuple(
      fc.constantFrom(...names, "__proto__", "constructor"),
      fc.oneof(hostileString, hostileNumber.map(String)),
    )
    .map(([k, v]) => `${percentEncode(k)}=${percentEncode(v.slice(0, 2000))}`);
  return fc.oneof(
    fc.array(pair, { minLength: 1, maxLength: 4 }).map((pairs) => pairs.join("&")),
    fc.constantFrom(
      `${names[0]}=%`,
      `${names[0]}=%zz`,
      `${names[0]}[]=1&${names[0]}[]=2`,
      `${names[0]}[a]=1`,
    ),
  );
}

/** What a body must never show: stack frames, file paths, SQL errors, library names. */
const INTERNALS =
  /\bat [\w.<>]+ \(|\.(?:ts|js|mjs):\d+|node_modules|\/src\/server|"stack"|violates|duplicate key|invalid input syntax|syntax error at|relation "|SQLSTATE|drizzle|TypeError|ReferenceError|RangeError|Cannot read propert/i;

export interface Tally {
  requests: number;
  serverErrors: number;
  refused: number;
  accepted: number;
  changedOnRefusal: number;
}

const newTally = (): Tally => ({
  requests: 0,
  serverErrors: 0,
  refused: 0,
  accepted: 0,
  changedOnRefusal: 0,
});

/** Checks one answer: no 5xx and nothing internal in the body. */
export function expectNoLeak(res: LightMyRequestResponse, label: string, tally: Tally) {
  tally.requests += 1;
  if (res.statusCode >= 500) tally.serverErrors += 1;
  expect(res.statusCode, `${label}: ${res.body.slice(0, 300)}`).toBeLessThan(500);
  expect(res.body, label).not.toMatch(INTERNALS);
}

/** Tables left out of the "nothing changed" fingerprint, with the reason. */
export const NOT_FINGERPRINTED = [
  // The sign-in/sign-up/reset rate limit counts every attempt, refused ones included: that is its job.
  "rate_limit",
];

/**
 * Checks one hostile request's answer (expectNoLeak) and counts it in `tally`; a refusal (4xx) must
 * leave every table as `before` was. True when it was refused.
 */
export async function refusedChangingNothing(
  world: RouteWorld,
  res: LightMyRequestResponse,
  label: string,
  tally: Tally,
  before: Record<string, string>,
): Promise<boolean> {
  expectNoLeak(res, label, tally);
  if (res.statusCode < 400) {
    tally.accepted += 1;
    return false;
  }
  tally.refused += 1;
  const after = await world.snapshot(NOT_FINGERPRINTED);
  if (JSON.stringify(after) !== JSON.stringify(before)) tally.changedOnRefusal += 1;
  expect(after, `${label} was refused (${res.statusCode}) but changed data`).toEqual(before);
  return true;
}

/**
 * The counts of a hostile-input file: every answer in `tally`, the requests per route or endpoint in
 * `perTarget`; printed after its tests (the figures the README's Guarantees section quotes).
 */
export function hostileRunCounts(title: string, targets: string) {
  const tally = newTally();
  const perTarget: Record<string, number> = {};
  afterAll(() => {
    console.info(
      `${title}: ${Object.keys(perTarget).length} ${targets}, ${tally.requests} requests, ` +
        `${tally.serverErrors} × 5xx, ${tally.refused} refused, ${tally.accepted} accepted, ` +
        `${tally.changedOnRefusal} refusals that changed data`,
    );
  });
  return { tally, perTarget };
}

export interface HostileTarget {
  method: Method;
  url: string;
  headers?: Record<string, string>;
}

export async function sendHostile(world: RouteWorld, target: HostileTarget, body: HostileBody | undefined) {
  const headers: Record<string, string> = { origin: ORIGIN, ...target.headers };
  if (!body) return world.ctx.app.inject({ method: target.method, url: target.url, headers });
  if (body.kind === "json") headers["content-type"] = "application/json";
  else headers["content-type"] = body.contentType;
  return world.ctx.app.inject({
    method: target.method,
    url: target.url,
    headers,
    payload: body.kind === "json" ? body.text : Buffer.from(body.bytes),
  });
}

/** The parsed body when it was plain JSON of an object, for comparing what came back. */
export function sentObject(body: HostileBody | undefined): Record<string, unknown> | undefined {
  if (body?.kind !== "json" || body.text.length > 2_000_000) return undefined;
  try {
    const value: unknown = JSON.parse(body.text);
    return value && typeof value === "object" && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

/**
 * For an accepted request: every text field the route takes that the answer shows again is shown as
 * sent (the schemas trim surrounding spaces, nothing else): no escaping, no stripping of markup.
 */
export function expectEchoedLiterally(
  fields: string[],
  sent: Record<string, unknown> | undefined,
  res: LightMyRequestResponse,
  label: string,
) {
  if (!sent || !res.headers["content-type"]?.toString().includes("json")) return;
  const answer: unknown = res.json();
  if (!answer || typeof answer !== "object") return;
  for (const field of fields) {
    const value = sent[field];
    const shown = (answer as Record<string, unknown>)[field];
    if (typeof value !== "string" || typeof shown !== "string") continue;
    expect([value, value.trim()], `${label}: ${field}`).toContain(shown);
  }
}

/** A multipart/form-data body, built by hand so its parts can be as wrong as a client makes them. */
export function multipartBytes(
  parts: { name: string; filename?: string; type?: string; data: Uint8Array }[],
  boundary = "----gearhouse-hostile",
): Uint8Array {
  const chunks: Uint8Array[] = [];
  const text = (s: string) => chunks.push(new TextEncoder().encode(s));
  for (const part of parts) {
    const filename = part.filename === undefined ? "" : `; filename="${part.filename}"`;
    text(`--${boundary}\r\nContent-Disposition: form-data; name="${part.name}"${filename}\r\n`);
    text(`Content-Type: ${part.type ?? "application/octet-stream"}\r\n\r\n`);
    chunks.push(part.data);
    text("\r\n");
  }
  text(`--${boundary}--\r\n`);
  return new Uint8Array(chunks.flatMap((c) => [...c]));
}

/** Hostile uploads: random bytes as the image, a real image under a hostile name or type, broken framing. */
export function hostileUploads(png: Uint8Array): fc.Arbitrary<HostileBody> {
  const boundary = "----gearhouse-hostile";
  const contentType = `multipart/form-data; boundary=${boundary}`;
  const asFile = (data: Uint8Array, filename = "a.png", type = "image/png", name = "image") =>
    multipartBytes([{ name, filename, type, data }], boundary);
  return fc.oneof(
    {
      arbitrary: fc.uint8Array({ maxLength: 4000 }).map(
        (bytes): HostileBody => ({
          kind: "bytes",
          bytes: asFile(bytes),
          contentType,
          note: "random bytes as image",
        }),
      ),
      weight: 4,
    },
    {
      arbitrary: fc
        .tuple(
          fc.constantFrom(...CORPUS, "../../x.png", "a.svg", "a.exe"),
          fc.constantFrom("image/svg+xml", "text/html", "image/png", ""),
        )
        .map(
          ([filename, type]): HostileBody => ({
            kind: "bytes",
            bytes: asFile(png, filename.replace(/["\r\n]/g, ""), type),
            contentType,
            note: "real image, hostile name or type",
          }),
        ),
      weight: 3,
    },
    {
      arbitrary: fc.tuple(fc.integer({ min: 1, max: png.length - 1 }), fc.uint8Array({ maxLength: 64 })).map(
        ([cut, tail]): HostileBody => ({
          kind: "bytes",
          bytes: asFile(new Uint8Array([...png.subarray(0, cut), ...tail])),
          contentType,
          note: "image cut short or with garbage",
        }),
      ),
      weight: 3,
    },
    {
      arbitrary: fc
        .uint8Array({ maxLength: 600 })
        .map((bytes): HostileBody => ({ kind: "bytes", bytes, contentType, note: "random multipart body" })),
      weight: 2,
    },
    {
      arbitrary: fc.constantFrom("image", "__proto__", "constructor").map(
        (name): HostileBody => ({
          kind: "bytes",
          bytes: multipartBytes(
            [
              { name, data: new TextEncoder().encode("x") },
              { name: "image", filename: "a.png", type: "image/png", data: png },
            ],
            boundary,
          ),
          contentType,
          note: `a field named ${name}`,
        }),
      ),
      weight: 1,
    },
    { arbitrary: hostileBodies({ image: "x" }), weight: 2 },
  );
}
