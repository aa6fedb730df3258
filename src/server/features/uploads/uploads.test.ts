import { readdirSync } from "node:fs";
import path from "node:path";
import { deflateSync } from "node:zlib";
import { count, eq } from "drizzle-orm";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { MAX_UPLOAD_BYTES } from "../../../shared/constants.js";
import { uploadMessages } from "../../../shared/messages/uploads.js";
import { orderInputSchema } from "../../../shared/orders.js";
import { images } from "../../db/schema/index.js";
import { setUpTestApp } from "../../test/app.js";
import { pngChunk } from "../../test/images.js";
import { fromShop, ORIGIN } from "../../test/users.js";
import { MAX_IMAGE_SIDE } from "./reencode.js";

// Far more uploads than a day's quota; the quota has tests of its own (security/upload-quotas.test.ts).
const ctx = setUpTestApp({ UPLOAD_LIMIT_PER_DAY: "1000" }, { rateLimit: { max: 10_000, windowSeconds: 60 } });
const alice = ctx.signedUpUser({ name: "Alice Uploader" });

interface FilePart {
  field?: string;
  bytes: Uint8Array | string;
  filename?: string;
  type?: string;
}

/** A multipart body built the way a browser's FormData is. */
async function multipartBody(parts: FilePart[], fields: Record<string, string> = {}) {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  for (const part of parts)
    form.append(
      part.field ?? "image",
      new Blob([part.bytes], { type: part.type ?? "application/octet-stream" }),
      part.filename ?? "upload.bin",
    );
  const encoded = new Response(form);
  return {
    payload: Buffer.from(await encoded.arrayBuffer()),
    contentType: encoded.headers.get("content-type") ?? "",
  };
}

async function upload(
  parts: FilePart[],
  options: { cookie?: string; headers?: Record<string, string>; fields?: Record<string, string> } = {},
) {
  const { payload, contentType } = await multipartBody(parts, options.fields);
  return ctx.app.inject({
    method: "POST",
    url: "/api/uploads",
    headers: {
      origin: ORIGIN,
      cookie: options.cookie ?? alice.cookie,
      "content-type": contentType,
      ...options.headers,
    },
    payload,
  });
}

const uploadImage = (bytes: Uint8Array, filename = "photo.png", type = "image/png") =>
  upload([{ bytes, filename, type }]);

const solid = (width: number, height: number, background: string) =>
  sharp({ create: { width, height, channels: 3, background } });

async function imageRows(): Promise<number> {
  const [row] = await ctx.database.db.select({ n: count() }).from(images);
  return row?.n ?? -1;
}

/** A valid black 1-bit PNG: a few dozen kilobytes that would decode to `width × height` pixels. */
function blankPng(width: number, height: number): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 1; // bit depth; colour type, compression, filter and interlace stay 0
  const rows = Buffer.alloc((1 + Math.ceil(width / 8)) * height);
  return Buffer.concat([
    Buffer.from("\x89PNG\r\n\x1a\n", "latin1"),
    pngChunk("IHDR", header),
    pngChunk("IDAT", deflateSync(rows, { level: 9 })),
    pngChunk("IEND", Buffer.alloc(0)),
  ]);
}

function expectProblem(res: { statusCode: number; headers: Record<string, unknown>; json(): unknown }) {
  expect(res.headers["content-type"]).toMatch(/^application\/problem\+json/);
  return res.json() as { status: number; detail: string };
}

describe("POST /api/uploads", () => {
  it.each([
    ["PNG", "image/png", "a.png", () => solid(40, 30, "#ff0000").png().toBuffer()],
    ["JPEG", "image/jpeg", "a.jpg", () => solid(40, 30, "#00ff00").jpeg().toBuffer()],
    ["GIF", "image/gif", "a.gif", () => solid(40, 30, "#0000ff").gif().toBuffer()],
    ["WebP", "image/webp", "a.webp", () => solid(40, 30, "#ffff00").webp().toBuffer()],
  ])("accepts a %s, stores it as WebP and serves it with immutable caching", async (_, type, name, make) => {
    const res = await uploadImage(await make(), name, type);
    expect(res.statusCode).toBe(201);
    const { url } = res.json();
    expect(url).toMatch(/^\/api\/images\/[a-f0-9]{64}\.webp$/);
    expect(orderInputSchema.shape.img.safeParse(url).success).toBe(true);

    const served = await ctx.app.inject({ method: "GET", url });
    expect(served.statusCode).toBe(200);
    expect(served.headers["content-type"]).toBe("image/webp");
    expect(served.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    expect(served.headers.etag).toBe(`"${url.slice(12, 76)}"`);
    expect(served.headers["x-content-type-options"]).toBe("nosniff");
    expect(served.headers["content-disposition"]).toMatch(/^inline/);
    const metadata = await sharp(served.rawPayload).metadata();
    expect(metadata).toMatchObject({ format: "webp", width: 40, height: 30 });
  });

  it("gives the same image the same URL and stores it once", async () => {
    const png = await solid(25, 25, "#123456").png().toBuffer();
    const before = await imageRows();
    const first = await uploadImage(png);
    const second = await uploadImage(png, "renamed.png");
    expect(first.statusCode).toBe(201);
    expect(second.statusCode).toBe(201);
    expect(second.json().url).toBe(first.json().url);
    expect(await imageRows()).toBe(before + 1);
    const key = first.json().url.slice(12, 76);
    const [row] = await ctx.database.db.select().from(images).where(eq(images.key, key));
    expect(row).toMatchObject({ contentType: "image/webp", width: 25, height: 25, createdBy: alice.id });
    expect(row?.byteSize).toBe(row?.data.length);
  });

  it("resizes a large image to fit inside 1600 px, never enlarging a small one", async () => {
    const res = await uploadImage(
      await solid(3200, 2000, "#336699").jpeg().toBuffer(),
      "big.jpg",
      "image/jpeg",
    );
    expect(res.statusCode).toBe(201);
    const served = await ctx.app.inject({ method: "GET", url: res.json().url });
    const metadata = await sharp(served.rawPayload).metadata();
    expect(metadata.width).toBe(MAX_IMAGE_SIDE);
    expect(metadata.height).toBe(1000);
  });

  it("turns a photo upright from its EXIF orientation and strips its metadata", async () => {
    const photo = await solid(200, 100, "#aa5500").jpeg().withMetadata({ orientation: 6 }).toBuffer();
    const res = await uploadImage(photo, "phone.jpg", "image/jpeg");
    expect(res.statusCode).toBe(201);
    const served = await ctx.app.inject({ method: "GET", url: res.json().url });
    const metadata = await sharp(served.rawPayload).metadata();
    expect(metadata).toMatchObject({ width: 100, height: 200 });
    expect(metadata.exif).toBeUndefined();
    expect(metadata.orientation).toBeUndefined();
  });

  it("keeps only the first frame of an animation", async () => {
    const frames = await Promise.all(["#ff0000", "#0000ff"].map((c) => solid(30, 20, c).png().toBuffer()));
    const animated = await sharp(frames, { join: { animated: true } })
      .gif()
      .toBuffer();
    expect((await sharp(animated).metadata()).pages).toBe(2);
    const res = await uploadImage(animated, "anim.gif", "image/gif");
    expect(res.statusCode).toBe(201);
    const served = await ctx.app.inject({ method: "GET", url: res.json().url });
    const metadata = await sharp(served.rawPayload).metadata();
    expect(metadata.pages ?? 1).toBe(1);
    expect(metadata).toMatchObject({ width: 30, height: 20 });
  });

  it("judges by content: a text file named x.png declared as image/png is refused with 415", async () => {
    const before = await imageRows();
    const res = await uploadImage(Buffer.from("just some text, honestly a PNG"), "x.png", "image/png");
    expect(res.statusCode).toBe(415);
    expect(expectProblem(res).detail).toBe(uploadMessages.unsupported);
    expect(await imageRows()).toBe(before);
  });

  it("refuses an SVG carrying a script", async () => {
    const svg =
      '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(1)</script></svg>';
    const res = await uploadImage(Buffer.from(svg), "logo.png", "image/png");
    expect(res.statusCode).toBe(415);
    expect(expectProblem(res).detail).toBe(uploadMessages.unsupported);
  });

  it.each([
    ["a PDF", () => Buffer.from("%PDF-1.7\n1 0 obj << /Type /Catalog >> endobj\n%%EOF")],
    ["an executable", () => Buffer.concat([Buffer.from("MZ\x90\x00", "latin1"), Buffer.alloc(200)])],
    ["random bytes", () => Buffer.from(Array.from({ length: 512 }, (_, i) => (i * 7919) % 256))],
    ["a GIF header over garbage", () => Buffer.concat([Buffer.from("GIF89a"), Buffer.alloc(200, 0x41)])],
    ["a real TIFF", () => solid(10, 10, "#ffffff").tiff().toBuffer()],
  ])("refuses %s with 415", async (_, make) => {
    const res = await uploadImage(await make(), "file.jpg", "image/jpeg");
    expect(res.statusCode).toBe(415);
    expect(expectProblem(res).detail).toBe(uploadMessages.unsupported);
  });

  it("refuses a file one byte over 5 MB with 413 and stores nothing", async () => {
    const before = await imageRows();
    const res = await uploadImage(Buffer.alloc(MAX_UPLOAD_BYTES + 1, 0x42));
    expect(res.statusCode).toBe(413);
    expect(expectProblem(res).detail).toBe(uploadMessages.tooLarge);
    expect(await imageRows()).toBe(before);
  });

  it("refuses a request body far over the limit from its Content-Length", async () => {
    const res = await uploadImage(Buffer.alloc(3 * MAX_UPLOAD_BYTES, 0x42));
    expect(res.statusCode).toBe(413);
    expect(expectProblem(res).detail).toBe(uploadMessages.tooLarge);
  });

  it("refuses a decompression bomb (a tiny 20000×20000 PNG) with 413 and stores nothing", async () => {
    const bomb = blankPng(20_000, 20_000);
    expect(bomb.length).toBeLessThan(MAX_UPLOAD_BYTES);
    const before = await imageRows();
    const res = await uploadImage(bomb);
    expect(res.statusCode).toBe(413);
    expect(expectProblem(res).detail).toBe(uploadMessages.tooManyPixels);
    expect(await imageRows()).toBe(before);
  });

  it("answers 401 to a visitor", async () => {
    const res = await upload([{ bytes: await solid(5, 5, "#000000").png().toBuffer() }], { cookie: "" });
    expect(res.statusCode).toBe(401);
    expectProblem(res);
  });

  it("passes the origin check from the shop and is refused from a foreign site", async () => {
    const png = await solid(6, 6, "#010203").png().toBuffer();
    expect((await upload([{ bytes: png }])).statusCode).toBe(201);
    const foreign = await upload([{ bytes: png }], { headers: { origin: "https://evil.example" } });
    expect(foreign.statusCode).toBe(403);
    expectProblem(foreign);
    const crossSite = await upload([{ bytes: png }], {
      headers: { origin: "", "sec-fetch-site": "cross-site" },
    });
    expect(crossSite.statusCode).toBe(403);
  });

  it("answers 415 to a JSON body", async () => {
    const res = await fromShop(ctx.app, "POST", "/api/uploads", alice.cookie, { image: "iVBORw0KGgo=" });
    expect(res.statusCode).toBe(415);
    expect(expectProblem(res).detail).toBe(uploadMessages.notMultipart);
  });

  it("answers 400 when the form has no image file", async () => {
    const fieldOnly = await upload([], { fields: { note: "forgot the file" } });
    expect(fieldOnly.statusCode).toBe(400);
    expect(expectProblem(fieldOnly).detail).toBe(uploadMessages.missing);
    const png = await solid(7, 7, "#040506").png().toBuffer();
    const wrongField = await upload([{ field: "photo", bytes: png }]);
    expect(wrongField.statusCode).toBe(400);
    const empty = await upload([{ bytes: new Uint8Array(0), filename: "" }]);
    expect(empty.statusCode).toBe(400);
  });

  it("refuses a second file", async () => {
    const png = await solid(8, 8, "#070809").png().toBuffer();
    const res = await upload([{ bytes: png }, { bytes: png }]);
    expect(res.statusCode).toBe(413);
    expect(expectProblem(res).detail).toBe(uploadMessages.tooManyParts);
  });

  it("leaves no upload behind in its spool, stored or refused", async () => {
    const png = await solid(9, 9, "#0a0b0c").png().toBuffer();
    const statuses = [
      (await uploadImage(png)).statusCode,
      (await uploadImage(Buffer.from("not an image"))).statusCode,
      (await uploadImage(Buffer.alloc(MAX_UPLOAD_BYTES + 1, 0x42))).statusCode,
      (await upload([{ bytes: new Uint8Array(0), filename: "" }])).statusCode,
      (await upload([{ bytes: png }, { bytes: png }])).statusCode,
    ];
    expect(statuses).toEqual([201, 415, 413, 400, 413]);
    const { dataDir } = ctx.app.config;
    const spools = readdirSync(dataDir).filter((name) => name.startsWith("upload-spool-"));
    // The spool was used (a directory of this instance's own), and nothing is left in it.
    expect(spools).toHaveLength(1);
    expect(readdirSync(path.join(dataDir, spools[0] ?? ""))).toEqual([]);
  });

  it("answers 400 to a malformed multipart body", async () => {
    const res = await ctx.app.inject({
      method: "POST",
      url: "/api/uploads",
      headers: { origin: ORIGIN, cookie: alice.cookie, "content-type": "multipart/form-data; boundary=x" },
      payload: '--x\r\nContent-Disposition: form-data; name="image"; filename="a.png"\r\n\r\nunfinished',
    });
    expect(res.statusCode).toBe(400);
    expect(expectProblem(res).detail).toBe(uploadMessages.unreadable);
  });
});

describe("GET /api/images/:file", () => {
  it("appears in the OpenAPI document as binary WebP beside the upload route", async () => {
    const doc = (await ctx.app.inject({ url: "/api/docs/json" })).json();
    const get = doc.paths["/api/images/{file}"].get;
    expect(get.responses["200"].content["image/webp"].schema).toMatchObject({
      type: "string",
      format: "binary",
    });
    expect(Object.keys(get.responses)).toEqual(expect.arrayContaining(["200", "304", "404"]));
    const post = doc.paths["/api/uploads"].post;
    expect(Object.keys(post.responses)).toEqual(expect.arrayContaining(["201", "400", "401", "413", "415"]));
  });

  it("answers 304 to a matching If-None-Match", async () => {
    const { url } = (await uploadImage(await solid(9, 9, "#0a0b0c").png().toBuffer())).json();
    const first = await ctx.app.inject({ method: "GET", url });
    const etag = String(first.headers.etag);
    const again = await ctx.app.inject({ method: "GET", url, headers: { "if-none-match": etag } });
    expect(again.statusCode).toBe(304);
    expect(again.rawPayload.length).toBe(0);
    expect(again.headers.etag).toBe(etag);
    expect(again.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    const weak = await ctx.app.inject({ method: "GET", url, headers: { "if-none-match": `W/${etag}` } });
    expect(weak.statusCode).toBe(304);
    const other = await ctx.app.inject({ method: "GET", url, headers: { "if-none-match": '"other"' } });
    expect(other.statusCode).toBe(200);
  });

  it.each([
    ["an unknown key", `/api/images/${"0".repeat(64)}.webp`],
    ["a malformed key", "/api/images/not-a-key.webp"],
    ["another extension", `/api/images/${"0".repeat(64)}.svg`],
  ])("answers 404 to %s", async (_, url) => {
    const res = await ctx.app.inject({ method: "GET", url });
    expect(res.statusCode).toBe(404);
    expect(expectProblem(res).detail).toBe(uploadMessages.notFound);
  });
});
