import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import type { ProductList } from "../../shared/catalog.js";
import { paymentMessages } from "../../shared/messages/payments.js";
import { products } from "../db/schema/index.js";
import { testModeBanner } from "../features/payments/test-mode.js";
import { createTestApp, setUpTestApp } from "../test/app.js";

const TOOLS = `<html><body>${"<p>prerendered tools</p>".repeat(100)}</body></html>`;
const page = (text: string) => `<html><body>${text}</body></html>`;
/** A page as the shop sends it while the sandbox takes payments (the default outside production). */
const inTestMode = (html: string) => html.replace("<body>", `<body>${testModeBanner()}`);
const SCRIPT = `console.log("${"gearhouse ".repeat(200)}");`;

/** A built client as vite.config.ts writes it: index.html, landing pages, compressed copies. */
function clientDir(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), "gearhouse-spa-"));
  mkdirSync(path.join(dir, "assets"));
  mkdirSync(path.join(dir, "pages"));
  writeFileSync(path.join(dir, "index.html"), page("index"));
  writeFileSync(path.join(dir, "pages", "index.html"), page("home"));
  writeFileSync(path.join(dir, "pages", "login.html"), page("login"));
  writeFileSync(path.join(dir, "pages", "tools.html"), TOOLS);
  writeFileSync(path.join(dir, "pages", "tools.html.br"), brotliCompressSync(TOOLS));
  writeFileSync(path.join(dir, "pages", "tools.html.gz"), gzipSync(TOOLS));
  writeFileSync(path.join(dir, "assets", "app.js"), SCRIPT);
  writeFileSync(path.join(dir, "assets", "app.js.br"), brotliCompressSync(SCRIPT));
  return dir;
}

const ctx = setUpTestApp({ STATIC_DIR: clientDir() });

describe("the built client", () => {
  it("sends a route its landing page, and index.html to every other client route", async () => {
    const sent = async (url: string) => (await ctx.app.inject({ url })).body;
    expect(await sent("/")).toBe(inTestMode(page("home")));
    expect(await sent("/login")).toBe(inTestMode(page("login")));
    expect(await sent("/login/?redirect=%2Ftools")).toBe(inTestMode(page("login")));
    expect(await sent("/dashboard/myProfile")).toBe(inTestMode(page("index")));
    expect((await ctx.app.inject({ url: "/dashboard/payment/3f1c2b8e" })).statusCode).toBe(200);
    const res = await ctx.app.inject({ url: "/login" });
    expect(res.headers["content-type"]).toBe("text/html; charset=utf-8");
    expect(res.headers["cache-control"]).toBe("no-cache");
  });

  it("sends a path no client route draws the app with 404, so its not-found page shows", async () => {
    for (const url of ["/no/such/page", "/dashboard/myOrders", "/tool", "/tool/a/b", "/about/?x=1"]) {
      const res = await ctx.app.inject({ url });
      const expected = url === "/about/?x=1" ? 200 : 404;
      expect(res.statusCode, url).toBe(expected);
      expect(res.headers["content-type"], url).toBe("text/html; charset=utf-8");
      expect(res.body, url).toBe(inTestMode(page("index")));
    }
    const head = await ctx.app.inject({ method: "HEAD", url: "/no/such/page" });
    expect(head.statusCode).toBe(404);
  });

  it("sends the Brotli copy of an asset to browsers that take it, and the file to the others", async () => {
    const br = await ctx.app.inject({ url: "/assets/app.js", headers: { "accept-encoding": "gzip, br" } });
    expect(br.headers["content-encoding"]).toBe("br");
    expect(br.headers.vary).toContain("accept-encoding");
    expect(br.headers["content-type"]).toContain("javascript");
    expect(br.rawPayload.length).toBeLessThan(SCRIPT.length / 10);
    const plain = await ctx.app.inject({ url: "/assets/app.js" });
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(plain.body).toBe(SCRIPT);
  });

  it("sends a landing page's compressed copy to browsers that take it", async () => {
    const tools = (encoding?: string) =>
      ctx.app.inject({ url: "/tools", headers: encoding ? { "accept-encoding": encoding } : {} });
    const br = await tools("gzip, deflate, br, zstd");
    expect(br.headers["content-encoding"]).toBe("br");
    expect(br.headers.vary).toBe("accept-encoding");
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(inTestMode(TOOLS));
    const gzip = await tools("gzip");
    expect(gzip.headers["content-encoding"]).toBe("gzip");
    expect(gunzipSync(gzip.rawPayload).toString()).toBe(inTestMode(TOOLS));
    const plain = await tools();
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(plain.body).toBe(inTestMode(TOOLS));
    expect((await ctx.app.inject({ url: "/", headers: { "accept-encoding": "br" } })).body).toBe(
      inTestMode(page("home")),
    );
  });

  it("serves neither compressed copies nor landing pages under their own names", async () => {
    expect((await ctx.app.inject({ url: "/assets/app.js.br" })).statusCode).toBe(404);
    expect((await ctx.app.inject({ url: "/pages/login.html" })).statusCode).toBe(404);
  });
});

describe("the test-mode banner", () => {
  it("is on every page, in every encoding, while the sandbox takes payments", async () => {
    expect(ctx.config.payments).toBe("sandbox");
    for (const url of ["/", "/login", "/tools", "/dashboard/myOrders", "/no-such-page"]) {
      for (const encoding of ["br", "gzip", "identity"]) {
        const res = await ctx.app.inject({ url, headers: { "accept-encoding": encoding } });
        const sentAs = res.headers["content-encoding"];
        const body =
          sentAs === "br"
            ? brotliDecompressSync(res.rawPayload)
            : sentAs === "gzip"
              ? gunzipSync(res.rawPayload)
              : res.rawPayload;
        expect(body.toString(), `${url} (${encoding})`).toContain(`<body>${testModeBanner()}`);
      }
    }
    // The build's compressed copies were made again with the banner, not dropped.
    const br = await ctx.app.inject({ url: "/tools", headers: { "accept-encoding": "br" } });
    expect(br.headers["content-encoding"]).toBe("br");
    expect(testModeBanner()).toContain(paymentMessages.page.testModeBanner);
  });

  it("is on no page when Stripe takes payments", async () => {
    const stripe = await createTestApp({
      STATIC_DIR: clientDir(),
      STRIPE_SECRET_KEY: "sk_test_x",
      STRIPE_PUBLISHABLE_KEY: "pk_test_x",
    });
    try {
      expect(stripe.config.payments).toBe("stripe");
      expect((await stripe.app.inject({ url: "/" })).body).toBe(page("home"));
      expect((await stripe.app.inject({ url: "/dashboard" })).body).toBe(page("index"));
      const br = await stripe.app.inject({ url: "/tools", headers: { "accept-encoding": "br" } });
      expect(brotliDecompressSync(br.rawPayload).toString()).toBe(TOOLS);
    } finally {
      await stripe.close();
    }
  });
});

describe("the /tools landing page", () => {
  /** The list as /tools asks for it on arrival (the browser test checks the page uses the preload). */
  const LIST = "/api/products?sort=name-asc&page=1&pageSize=12";

  const firstImage = async () =>
    ((await ctx.app.inject({ url: "/api/products" })).json() as ProductList).items[0]?.image;

  it("preloads the image of the first product it shows, as the list answers it", async () => {
    const image = await firstImage();
    expect(image).toMatch(/^\//);
    const res = await ctx.app.inject({ url: "/tools" });
    expect(res.statusCode).toBe(200);
    expect(res.headers.link).toBe(
      `<${LIST}>; rel=preload; as=fetch; crossorigin=anonymous, <${image}>; rel=preload; as=image; fetchpriority=high`,
    );
    // The preloaded list is one the API answers, and the one whose first image is preloaded.
    const list = await ctx.app.inject({ url: LIST });
    expect(list.statusCode).toBe(200);
    expect((list.json() as ProductList).items[0]?.image).toBe(image);
  });

  it("follows the catalog: a product that sorts first brings its own image", async () => {
    const image = "/media/products/cyclone-120-argb-pwm-fan.svg";
    await ctx.database.db.insert(products).values({
      name: "000 Preload First",
      description: "Sorts before every demo product.",
      image,
      price: 10,
      quantity: 5,
      category: "cooling-fans",
    });
    ctx.app.catalogCache.everythingChanged();
    expect(await firstImage()).toBe(image);
    expect((await ctx.app.inject({ url: "/tools" })).headers.link).toContain(
      `<${image}>; rel=preload; as=image; fetchpriority=high`,
    );
  });

  it("preloads nothing for a filtered URL or another page, whose first product may differ", async () => {
    expect((await ctx.app.inject({ url: "/tools?category=mice" })).headers.link).toBeUndefined();
    expect((await ctx.app.inject({ url: "/login" })).headers.link).toBeUndefined();
    expect((await ctx.app.inject({ url: "/" })).headers.link).toBeUndefined();
  });
});
