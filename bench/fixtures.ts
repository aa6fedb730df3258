// What the benchmark sets up through the shop's own API before it measures: sessions, a product
// with a huge stock, a large JPEG to upload.
import { randomFillSync } from "node:crypto";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import sharp from "sharp";

/** The demo admin that a development start creates (README). */
const DEMO_ADMIN = { email: "admin@gearhouse.local", password: "Admin123!" };

function cookieOf(res: Response): string {
  return res.headers
    .getSetCookie()
    .map((c) => c.split(";")[0] ?? "")
    .filter((c) => c && !c.endsWith("="))
    .join("; ");
}

async function post(
  base: string,
  url: string,
  body: unknown,
  cookie = "",
  method = "POST",
): Promise<Response> {
  const res = await fetch(`${base}${url}`, {
    method,
    headers: { "content-type": "application/json", origin: base, ...(cookie ? { cookie } : {}) },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${method} ${url}: ${res.status} ${await res.text()}`);
  return res;
}

export async function signInAdmin(base: string): Promise<string> {
  return cookieOf(await post(base, "/api/auth/sign-in/email", DEMO_ADMIN));
}

/**
 * Follows the verification link the shop mailed to `email` (booking needs a verified address): the
 * bench's shop has no SMTP_URL, so the mail is a file in DATA_DIR/outbox named after the address.
 */
async function verifyThroughOutbox(base: string, dataDir: string, email: string, cookie: string) {
  const outbox = path.join(dataDir, "outbox");
  const deadline = Date.now() + 60_000;
  for (;;) {
    let files: string[] = [];
    try {
      files = readdirSync(outbox).filter((f) => f.endsWith(`-${email}.json`));
    } catch {
      // No mail saved yet.
    }
    for (const file of files) {
      const { text = "" } = JSON.parse(readFileSync(path.join(outbox, file), "utf8")) as { text?: string };
      const link = text.match(/https?:\/\/\S+\/api\/auth\/verify-email\S*/)?.[0];
      if (!link) continue;
      const url = new URL(link);
      const res = await fetch(`${base}${url.pathname}${url.search}`, {
        headers: { cookie },
        redirect: "manual",
      });
      if (res.status !== 302) throw new Error(`verifying ${email}: ${res.status} ${await res.text()}`);
      return;
    }
    if (Date.now() > deadline) throw new Error(`no verification mail to ${email} in ${outbox}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * New customers, each with a session of their own and a verified email (through the link mailed to
 * the shop's outbox in `dataDir`); sign-ups run a few at a time (each hashes a password).
 */
export async function signUpCustomers(base: string, count: number, dataDir: string): Promise<string[]> {
  const cookies: string[] = [];
  const run = `${Date.now()}`;
  for (let i = 0; i < count; i += 5) {
    const batch = Array.from({ length: Math.min(5, count - i) }, async (_, j) => {
      const email = `bench.${run}.${i + j}@example.com`;
      const res = await post(base, "/api/auth/sign-up/email", {
        name: `Bench Customer ${i + j}`,
        email,
        password: "Bench123!",
        phone: "+1 555 0100",
      });
      const cookie = cookieOf(res);
      await verifyThroughOutbox(base, dataDir, email, cookie);
      return cookie;
    });
    cookies.push(...(await Promise.all(batch)));
  }
  if (cookies.some((c) => !c)) throw new Error("a sign-up gave no session");
  return cookies;
}

export async function createProduct(
  base: string,
  adminCookie: string,
  quantity: number,
): Promise<{ id: string; name: string }> {
  const name = `Bench fan ${Date.now()}`;
  const res = await post(
    base,
    "/api/products",
    {
      name,
      description: "A fan with a stock large enough for the order benchmark.",
      image: "/media/products/gale-120-high-static-pressure-fan.svg",
      price: 19,
      // Volume prices (issue 33): every benchmark booking is priced by a tier.
      priceTiers: [
        { min: 10, price: 17 },
        { min: 50, price: 15 },
      ],
      quantity,
      category: "cooling-fans",
    },
    adminCookie,
  );
  return { id: ((await res.json()) as { id: string }).id, name };
}

/**
 * What every benchmark booking carries (issue 33): a discount code for the product, with uses
 * counted (no limit, so none is refused), and a tax rate added to its prices. Answers the code.
 */
export async function priceBookings(base: string, adminCookie: string, productId: string): Promise<string> {
  const code = `BENCH-${Date.now()}`;
  await post(
    base,
    "/api/admin/discount-codes",
    { code, kind: "percent", value: 5, productIds: [productId] },
    adminCookie,
  );
  const tax = { ratePercent: 8.25, pricesIncludeTax: false, taxId: "" };
  await post(base, "/api/admin/settings/tax", tax, adminCookie, "PUT");
  return code;
}

/**
 * Total units ordered of a product, from the admin's order list searched by the product's name
 * (unique per run), page after page.
 */
export async function unitsOrdered(
  base: string,
  adminCookie: string,
  product: { id: string; name: string },
): Promise<number> {
  let units = 0;
  let cursor: string | null = null;
  do {
    const query = new URLSearchParams({ search: product.name, limit: "100", ...(cursor ? { cursor } : {}) });
    const res = await fetch(`${base}/api/orders?${query}`, { headers: { cookie: adminCookie } });
    if (!res.ok) throw new Error(`GET /api/orders: ${res.status} ${await res.text()}`);
    const page = (await res.json()) as {
      items: { productId: string | null; quantity: number }[];
      nextCursor: string | null;
    };
    units += page.items.filter((o) => o.productId === product.id).reduce((sum, o) => sum + o.quantity, 0);
    cursor = page.nextCursor;
  } while (cursor);
  return units;
}

async function stockOf(base: string, productId: string): Promise<number> {
  const res = await fetch(`${base}/api/products/${productId}`);
  return ((await res.json()) as { quantity: number }).quantity;
}

/**
 * The stock once it has stopped moving: orders the load generator sent just before it stopped are
 * still being placed when it reports. Waits longer than the catalog cache's time to live each time.
 */
export async function settledStock(base: string, productId: string): Promise<number> {
  let last = await stockOf(base, productId);
  for (;;) {
    await new Promise((r) => setTimeout(r, 1_500));
    const now = await stockOf(base, productId);
    if (now === last) return now;
    last = now;
  }
}

/**
 * A 12-megapixel JPEG like a phone photo: smooth gradients with sensor-like noise, about 2.5 MB.
 * (Pure noise would make a WebP of over a megabyte, which no product photo is.) Returns its size.
 */
export async function writeLargeJpeg(file: string, width = 4000, height = 3000): Promise<number> {
  const noise = randomFillSync(Buffer.alloc(width * height * 3));
  // Clamped: a gradient's dark and light ends plus grain stay black and white instead of wrapping.
  const pixels = new Uint8ClampedArray(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 3;
      const grain = (j: number) => ((noise[i + j] ?? 0) % 24) - 12;
      pixels[i] = (x * 255) / width + grain(0);
      pixels[i + 1] = (y * 255) / height + grain(1);
      pixels[i + 2] = 128 + 100 * Math.sin(x / 200) * Math.cos(y / 150) + grain(2);
    }
  }
  const jpeg = await sharp(Buffer.from(pixels.buffer), { raw: { width, height, channels: 3 } })
    .jpeg({ quality: 90 })
    .toBuffer();
  writeFileSync(file, jpeg);
  return jpeg.length;
}
