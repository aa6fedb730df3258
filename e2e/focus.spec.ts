import type { Page } from "@playwright/test";
import { commonMessages } from "../src/shared/messages/common.js";
import { expectAccessible } from "./support/axe.js";
import { expect, test } from "./support/fixtures.js";

// Issue 34, item 6: the header's links showed focus only as the faint pill of the current page. Every
// interactive element shows a ring where the keyboard is (src/client/index.css).

type Focused = {
  inNav: boolean;
  name: string;
  outlineStyle: string;
  outlineWidth: number;
  boxShadow: string;
};

/** What has the focus now: whether it is in the top bar, its text, and how its focus is drawn. */
const focused = (page: Page): Promise<Focused> =>
  // A string, as the browser runs it: this project's Node types know no DOM.
  page.evaluate(`(() => {
    const el = document.activeElement;
    const style = el ? getComputedStyle(el) : null;
    return {
      inNav: Boolean(el && el.closest("header nav")),
      name: el ? (el.getAttribute("aria-label") || el.textContent || el.tagName).trim() : "",
      outlineStyle: style ? style.outlineStyle : "none",
      outlineWidth: style ? parseFloat(style.outlineWidth) : 0,
      boxShadow: style ? style.boxShadow : "none",
    };
  })()`);

/** A ring of 2 px or more: an outline, or a box-shadow ring. */
const ringed = (f: Focused) =>
  (f.outlineStyle !== "none" && f.outlineWidth >= 2) || (f.boxShadow !== "none" && f.boxShadow !== "");

/** Tabs through the page from its top and returns every element of the top bar the focus met. */
async function tabThroughNav(page: Page, most = 20): Promise<Focused[]> {
  const met: Focused[] = [];
  for (let i = 0; i < most; i++) {
    await page.keyboard.press("Tab");
    const now = await focused(page);
    if (now.inNav) met.push(now);
    else if (met.length > 0) break;
  }
  return met;
}

test("every link and button of the top bar shows a focus ring, the current page's too", async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto("/");
  await expect(page.getByRole("link", { name: commonMessages.nav.login })).toBeVisible();
  const met = await tabThroughNav(page);
  // The brand, the four links (Home is the current page) and Login.
  expect(met.map((f) => f.name)).toEqual(
    expect.arrayContaining([commonMessages.nav.home, commonMessages.nav.products, commonMessages.nav.login]),
  );
  for (const f of met) expect(ringed(f), `${f.name}: ${JSON.stringify(f)}`).toBe(true);
  await expectAccessible(page, "home with the focus in the top bar, 1440 px");
});

test("at 390 px the menu button and the opened menu's links show a focus ring", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto("/");
  const toggle = page.getByRole("button", { name: commonMessages.nav.menu });
  await expect(toggle).toBeEnabled();
  const before = await tabThroughNav(page);
  expect(before.map((f) => f.name)).toContain(commonMessages.nav.menu);
  await toggle.focus();
  await page.keyboard.press("Enter");
  await expect(toggle).toHaveAttribute("aria-expanded", "true");
  const opened: Focused[] = [];
  for (let i = 0; i < 6; i++) {
    await page.keyboard.press("Tab");
    const now = await focused(page);
    if (!now.inNav) break;
    opened.push(now);
  }
  expect(opened.map((f) => f.name)).toContain(commonMessages.nav.home);
  for (const f of [...before, ...opened]) expect(ringed(f), `${f.name}: ${JSON.stringify(f)}`).toBe(true);
  await expectAccessible(page, "home with the menu open, 390 px");
});
