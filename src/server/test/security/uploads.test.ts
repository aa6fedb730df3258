import { eq } from "drizzle-orm";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { images } from "../../db/schema/index.js";
import { setUpTestApp } from "../app.js";
import { pngChunk } from "../images.js";
import { multipartImage } from "../route-cases.js";
import { ORIGIN } from "../users.js";

/**
 * ASVS V12 (files): polyglots, files that are a valid image and markup or script at once, are
 * accepted only as a re-encoded image whose stored bytes no longer hold the payload, and what is
 * stored is served as WebP with nosniff only.
 *
 * The other hostile files are proved in features/uploads/uploads.test.ts and not repeated here:
 * - a renamed executable ("refuses an executable with 415", with PDF, TIFF and random bytes),
 * - an SVG with a script ("refuses an SVG carrying a script"),
 * - an oversized file ("refuses a file one byte over 5 MB…", "…far over the limit from its Content-Length"),
 * - a decompression bomb ("refuses a decompression bomb (a tiny 20000×20000 PNG)…").
 */

const PAYLOAD = "<script>alert(document.cookie)</script><html><body onload=alert(1)>";
const MARK = "alert(document.cookie)";

const ctx = setUpTestApp({}, { rateLimit: { max: 1000, windowSeconds: 60 } });
const user = ctx.signedUpUser({ name: "Polyglot Uploader" });

const solid = (background: string) => sharp({ create: { width: 24, height: 16, channels: 3, background } });

/** The PNG with a chunk inserted just before IEND (the last 12 bytes). */
const withPngChunk = (png: Buffer, type: string, data: Buffer) =>
  Buffer.concat([png.subarray(0, png.length - 12), pngChunk(type, data), png.subarray(png.length - 12)]);

/** The JPEG with a comment (COM) segment right after its start-of-image marker. */
function withJpegComment(jpeg: Buffer, comment: string): Buffer {
  const data = Buffer.from(comment, "latin1");
  const header = Buffer.from([0xff, 0xfe, 0, 0]);
  header.writeUInt16BE(data.length + 2, 2);
  return Buffer.concat([jpeg.subarray(0, 2), header, data, jpeg.subarray(2)]);
}

const POLYGLOTS: [string, string, () => Promise<Buffer>][] = [
  [
    "a PNG with HTML appended after IEND",
    "image/png",
    async () => Buffer.concat([await solid("#ff0000").png().toBuffer(), Buffer.from(PAYLOAD)]),
  ],
  [
    "a PNG with the script in a tEXt chunk",
    "image/png",
    async () =>
      withPngChunk(
        await solid("#00ff00").png().toBuffer(),
        "tEXt",
        Buffer.from(`Comment\0${PAYLOAD}`, "latin1"),
      ),
  ],
  [
    "a JPEG with the script in a comment segment",
    "image/jpeg",
    async () => withJpegComment(await solid("#0000ff").jpeg().toBuffer(), PAYLOAD),
  ],
  [
    "a JPEG with the script in its EXIF description",
    "image/jpeg",
    () =>
      solid("#ffff00")
        .jpeg()
        .withExif({ IFD0: { ImageDescription: PAYLOAD } })
        .toBuffer(),
  ],
  [
    "a GIF with a script after its trailer",
    "image/gif",
    async () => Buffer.concat([await solid("#00ffff").gif().toBuffer(), Buffer.from(`*/=1;${PAYLOAD}`)]),
  ],
  [
    "a WebP with the script in its XMP",
    "image/webp",
    () =>
      solid("#ff00ff")
        .webp()
        .withXmp(
          `<x:xmpmeta xmlns:x="adobe:ns:meta/"><x:payload>${PAYLOAD.replaceAll("<", "&lt;")}${MARK}</x:payload></x:xmpmeta>`,
        )
        .toBuffer(),
  ],
];

async function upload(bytes: Buffer, type: string) {
  const body = await multipartImage(bytes, "holiday.html", type);
  return ctx.app.inject({
    method: "POST",
    url: "/api/uploads",
    headers: { ...body.headers, origin: ORIGIN, cookie: user.cookie },
    payload: body.payload,
  });
}

describe("polyglot uploads", () => {
  for (const [name, type, make] of POLYGLOTS) {
    it(`takes ${name} only as a re-encoded WebP without the payload`, async () => {
      const bytes = await make();
      expect(bytes.includes(MARK), "the fixture carries the payload").toBe(true);
      const res = await upload(bytes, type);
      // It is a valid image, so it is taken: cleaned, not refused.
      expect(res.statusCode, res.body).toBe(201);
      const { url } = res.json() as { url: string };
      const served = await ctx.app.inject({ url });
      expect(served.statusCode).toBe(200);
      expect(served.headers["content-type"]).toBe("image/webp");
      expect(served.headers["x-content-type-options"]).toBe("nosniff");
      expect(served.headers["content-disposition"]).toMatch(/^inline; filename="[a-f0-9]{64}\.webp"$/);
      expect(served.rawPayload.includes(MARK)).toBe(false);
      expect(served.rawPayload.includes("<script")).toBe(false);
      expect((await sharp(served.rawPayload).metadata()).format).toBe("webp");

      const [stored] = await ctx.database.db
        .select({ data: images.data, contentType: images.contentType })
        .from(images)
        .where(eq(images.key, url.slice(12, 76)));
      expect(stored?.contentType).toBe("image/webp");
      expect(stored?.data.includes(MARK)).toBe(false);
    });
  }

  it("stores every accepted upload as WebP and nothing else", async () => {
    const gif = Buffer.concat([await solid("#321321").gif().toBuffer(), Buffer.from(PAYLOAD)]);
    expect((await upload(gif, "text/html")).statusCode).toBeLessThan(500);
    expect((await upload(await solid("#456456").png().toBuffer(), "image/svg+xml")).statusCode).toBe(201);
    const types = await ctx.database.db.selectDistinct({ contentType: images.contentType }).from(images);
    expect(types.map((t) => t.contentType)).toEqual(["image/webp"]);
  });

  it("answers a request for a stored image under any other name with 404, never a guessed type", async () => {
    const res = await upload(await solid("#123123").png().toBuffer(), "image/png");
    const key = (res.json() as { url: string }).url.slice(12, 76);
    for (const name of [`${key}.html`, `${key}.svg`, `${key}.webp.html`, key, `${key}.WEBP`]) {
      const served = await ctx.app.inject({ url: `/api/images/${name}` });
      expect(served.statusCode, name).toBe(404);
      expect(served.headers["content-type"], name).toMatch(/^application\/problem\+json/);
    }
  });
});
