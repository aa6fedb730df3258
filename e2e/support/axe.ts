import { AxeBuilder } from "@axe-core/playwright";
import { expect, type Page } from "@playwright/test";

/** A toast on its way out (sonner marks it before its exit transition). */
const LEAVING_TOAST = '[data-sonner-toast][data-removed="true"]';

/**
 * axe-core finds no serious or critical violation on the page, target size included, once it is still: its code has
 * loaded (a prerendered page's buttons wait for it, disabled) and no colour is halfway through a
 * transition, which axe would measure as it is at that instant.
 */
export async function expectAccessible(page: Page, label = page.url(), tags?: string[]): Promise<void> {
  await page.waitForLoadState("networkidle");
  // Polled from here: page.waitForFunction would evaluate the string in the page, which its
  // Content-Security-Policy forbids. (A string: this project's Node types know no DOM.)
  await expect
    .poll(() =>
      page.evaluate(
        `document.getAnimations().every((a) => !(a instanceof CSSTransition) || a.playState !== "running") &&
          !document.querySelector(${JSON.stringify(LEAVING_TOAST)})`,
      ),
    )
    .toBe(true);
  // A toast that starts to leave once the page is still fades while axe reads it (sonner's exit
  // transition): its colours at that instant are not the ones it was shown in.
  const builder = new AxeBuilder({ page }).exclude(LEAVING_TOAST);
  // WCAG 2.2's target size (2.5.8: at least 24 px, or spaced as if): axe leaves the rule off by
  // default, so every check turns it on, and a check by tags includes WCAG 2.2 AA (issue 34).
  builder.options({ rules: { "target-size": { enabled: true } } });
  if (tags) builder.withTags([...new Set([...tags, "wcag22aa"])]);
  const result = await builder.analyze();
  const serious = result.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
  expect(
    serious.map((v) => `${label}: ${v.id}, ${v.help} (${v.nodes.map((n) => n.target.join(" ")).join(", ")})`),
  ).toEqual([]);
}
