import { CATEGORY_LABELS } from "../src/shared/constants.js";
import { accountMessages } from "../src/shared/messages/accounts.js";
import { catalogMessages } from "../src/shared/messages/catalog.js";
import { commonMessages } from "../src/shared/messages/common.js";
import { homeMessages } from "../src/shared/messages/home.js";
import { expect, test } from "./support/fixtures.js";

/*
 * For the Lighthouse budget of `npm run bench` (docs/decisions/prerendered-landing-pages.md): the
 * landing pages arrive prerendered (src/client/prerender.tsx), so they show before any script has
 * run, and React takes the markup over in place (hydration) instead of drawing the page a second
 * time.
 */
const LANDING = [
  {
    path: "/",
    heading: homeMessages.exploreProducts,
    title: `${commonMessages.nav.brand} · ${homeMessages.tagline}`,
  },
  {
    path: "/tools",
    heading: catalogMessages.title,
    title: `${catalogMessages.title} · ${commonMessages.nav.brand}`,
  },
  {
    path: "/login",
    heading: accountMessages.pages.login,
    title: `${accountMessages.pages.login} · ${commonMessages.nav.brand}`,
  },
];

test.describe("prerendered landing pages", () => {
  for (const { path, heading, title } of LANDING) {
    test(`${path} shows its content and title without JavaScript`, async ({ browser }) => {
      const context = await browser.newContext({ javaScriptEnabled: false });
      const page = await context.newPage();
      await page.goto(path);
      await expect(page).toHaveTitle(title);
      await expect(page.getByRole("heading", { name: heading })).toBeVisible();
      await expect(page.getByRole("navigation", { name: commonMessages.nav.label })).toBeVisible();
      // Only the page's code can answer a press: until it runs, every button says it cannot.
      const buttons = await page.getByRole("button", { includeHidden: true }).all();
      expect(buttons.length).toBeGreaterThan(0);
      for (const button of buttons) await expect(button).toBeDisabled();
      await context.close();
    });

    test(`${path} is hydrated: the page's elements are kept, and nothing is logged`, async ({ page }) => {
      const problems: string[] = [];
      page.on("console", (m) => {
        if (m.type() === "error" || m.type() === "warning") problems.push(m.text());
      });
      page.on("pageerror", (e) => problems.push(e.message));
      // Before the app's module runs (module scripts run after the document is parsed), remember
      // the prerendered <main>; a page drawn again from nothing would have a new one.
      // (Strings, as the browser runs them: this project's Node types know no DOM.)
      await page.addInitScript({
        content: `document.addEventListener("readystatechange", () => {
          if (document.readyState === "interactive") window.prerenderedMain = document.querySelector("main");
        });`,
      });
      // The app is running once it has asked who is signed in.
      const session = page.waitForResponse((r) => new URL(r.url()).pathname === "/api/session");
      await page.goto(path);
      await session;
      await page.waitForLoadState("networkidle");
      await expect(page.getByRole("link", { name: commonMessages.nav.login })).toBeVisible();
      const kept = await page.evaluate(
        `window.prerenderedMain != null && window.prerenderedMain === document.querySelector("main") &&
          window.prerenderedMain.isConnected`,
      );
      expect(kept, "the prerendered <main> is the one on the page").toBe(true);
      const buttons = await page.getByRole("button", { includeHidden: true }).all();
      for (const button of buttons) await expect(button).toBeEnabled();
      expect(problems).toEqual([]);
    });
  }

  test("a prerendered form is not sent before the page's code runs, so no password lands in a URL", async ({
    browser,
  }) => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto("/login");
    await expect(page.getByRole("button", { name: accountMessages.form.signIn, exact: true })).toBeDisabled();
    const form = page.getByRole("main");
    await form.getByLabel(accountMessages.form.email).fill("someone@example.com");
    await form.getByLabel(accountMessages.form.password).fill("Secret123");
    await form.getByLabel(accountMessages.form.password).press("Enter");
    await expect(page.getByRole("heading", { name: accountMessages.pages.login })).toBeVisible();
    expect(page.url()).not.toContain("Secret123");
    expect(new URL(page.url()).search).toBe("");
    await context.close();
  });

  test("the same form works once the page's code runs", async ({ page }) => {
    await page.goto("/login");
    await expect(page.getByRole("button", { name: accountMessages.form.signIn, exact: true })).toBeEnabled();
  });

  test("/login's Sign In can be pressed as the page shows: a press before its code runs signs in once it has", async ({
    page,
    request,
    users,
  }) => {
    // Issue 34: the button stayed disabled until the code had run (1.1–1.8 s on a slow phone).
    const account = await users.signUp(request, { tag: "early" });
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    // Every script but boot.ts waits: the page is shown, its code has not run.
    await page.route(/\/assets\/(?!boot-)[^/]*\.js$/, async (route) => {
      await held;
      await route.continue();
    });
    await page.goto("/login", { waitUntil: "commit" });
    const signIn = page.getByRole("button", { name: accountMessages.form.signIn, exact: true });
    await expect(signIn).toBeEnabled();
    const form = page.getByRole("main");
    await form.getByLabel(accountMessages.form.email).fill(account.email);
    await form.getByLabel(accountMessages.form.password).fill(account.password);
    await signIn.click();
    // Held, not sent by the browser on its own: no password in the address.
    expect(new URL(page.url()).search).toBe("");
    release();
    await expect(page).not.toHaveURL(/\/login/);
    expect((await page.request.get("/api/me")).status()).toBe(200);
  });

  test("/login is usable before zod has loaded; its form still checks what is sent", async ({ page }) => {
    // zod and the form's schema load once the form gets the focus (use-schema-form.ts), not with the
    // page (docs/decisions/first-page-main-thread.md).
    const zod = /\/assets\/zod-[^/]*\.js$/;
    const early: string[] = [];
    page.on("request", (request) => {
      if (zod.test(request.url())) early.push(request.url());
    });
    await page.goto("/login");
    const signIn = page.getByRole("button", { name: accountMessages.form.signIn, exact: true });
    await expect(signIn).toBeEnabled();
    await page.waitForLoadState("networkidle");
    expect(early, "zod loaded with the page").toEqual([]);
    const loaded = page.waitForRequest(zod);
    await signIn.click();
    await loaded;
    const form = page.getByRole("main");
    await expect(form.getByText(accountMessages.emailRequired, { exact: true })).toBeVisible();
    await expect(form.getByText(accountMessages.passwordRequired, { exact: true })).toBeVisible();
    await form.getByLabel(accountMessages.form.email).fill("not-an-email");
    await expect(form.getByText(accountMessages.emailInvalid, { exact: true })).toBeVisible();
  });

  test("what a visitor types or picks in /tools before its code runs is applied once it runs", async ({
    page,
  }) => {
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    // The page's one up-front script waits until the visitor has chosen.
    await page.route(/\/assets\/boot-[^/]*\.js$/, async (route) => {
      await held;
      await route.continue();
    });
    // Module scripts hold back DOMContentLoaded, so the page is only committed and parsed.
    await page.goto("/tools", { waitUntil: "commit" });
    await page.getByLabel(catalogMessages.searchLabel).fill("fan");
    await page.getByLabel(catalogMessages.sortLabel).selectOption("price-desc");
    release();
    await expect(page).toHaveURL(/[?&]search=fan(&|$)/);
    await expect(page).toHaveURL(/[?&]sort=price-desc(&|$)/);
    await expect(page.getByLabel(catalogMessages.searchLabel)).toHaveValue("fan");
    await expect(page.getByLabel(catalogMessages.sortLabel)).toHaveValue("price-desc");
  });

  test("another address of a landing route is drawn by the app, with its own state", async ({ page }) => {
    await page.goto("/tools?category=mice");
    await expect(page.getByRole("heading", { name: catalogMessages.title })).toBeVisible();
    const filter = page.getByRole("navigation", { name: catalogMessages.categoryLabel });
    await expect(filter.getByRole("link", { name: CATEGORY_LABELS.mice })).toHaveAttribute(
      "aria-current",
      "page",
    );
    await expect(filter.getByRole("link", { name: catalogMessages.allCategories })).not.toHaveAttribute(
      "aria-current",
      "page",
    );
  });

  test("/tools preloads its product list and first image, and the page uses the preloaded list", async ({
    page,
  }) => {
    const lists: string[] = [];
    page.on("request", (r) => {
      if (new URL(r.url()).pathname === "/api/products") lists.push(r.url());
    });
    const response = await page.goto("/tools");
    const link = response?.headers().link ?? "";
    const preloaded = /<([^>]+)>; rel=preload; as=fetch/.exec(link)?.[1];
    const image = /<([^>]+)>; rel=preload; as=image/.exec(link)?.[1];
    expect(preloaded, "the list is preloaded").toMatch(/^\/api\/products\?/);
    const firstCard = page.getByRole("main").getByRole("article").first();
    await expect(firstCard.getByRole("img")).toHaveAttribute("src", image ?? "no preloaded image");
    await page.waitForLoadState("networkidle");
    // One request: the page's own ask was answered by the preload, spelled the same way.
    expect(lists.map((url) => new URL(url).pathname + new URL(url).search)).toEqual([preloaded]);
  });
});
