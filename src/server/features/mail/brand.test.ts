import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { MAIL_COLORS, THEME_COLORS } from "../../../shared/brand.js";

/** oklch(L% C H) in sRGB hex (Björn Ottosson's OKLab matrices), clipped to the gamut. */
function oklchToHex(css: string): string {
  const match = /^oklch\(([\d.]+)% ([\d.]+) ([\d.]+)\)$/.exec(css);
  if (!match) throw new Error(`not an oklch colour: ${css}`);
  const [L, C, H] = [Number(match[1]) / 100, Number(match[2]), (Number(match[3]) * Math.PI) / 180];
  const a = C * Math.cos(H);
  const b = C * Math.sin(H);
  const l = (L + 0.3963377774 * a + 0.2158037573 * b) ** 3;
  const m = (L - 0.1055613458 * a - 0.0638541728 * b) ** 3;
  const s = (L - 0.0894841775 * a - 1.291485548 * b) ** 3;
  const linear = [
    4.0767416621 * l - 3.3077115913 * m + 0.2309699292 * s,
    -1.2684380046 * l + 2.6097574011 * m - 0.3413193965 * s,
    -0.0041960863 * l - 0.7034186147 * m + 1.707614701 * s,
  ];
  const gamma = (x: number) => {
    const v = Math.min(1, Math.max(0, x));
    return v <= 0.0031308 ? 12.92 * v : 1.055 * v ** (1 / 2.4) - 0.055;
  };
  return `#${linear
    .map((x) =>
      Math.round(gamma(x) * 255)
        .toString(16)
        .padStart(2, "0"),
    )
    .join("")}`;
}

/** WCAG 2 contrast ratio of two sRGB hex colours. */
function contrast(one: string, two: string): number {
  const luminance = (hex: string) => {
    const [r, g, b] = [1, 3, 5].map((i) => {
      const v = Number.parseInt(hex.slice(i, i + 2), 16) / 255;
      return v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
    }) as [number, number, number];
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const [hi, lo] = [luminance(one), luminance(two)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

const CSS_NAMES: Record<keyof typeof THEME_COLORS, string> = {
  base100: "--color-base-100",
  baseContent: "--color-base-content",
  primary: "--color-primary",
  primaryContent: "--color-primary-content",
};

describe("the shop's colours for the mails", () => {
  it("are the site's theme (src/client/index.css), in hex as mail clients read them", () => {
    const css = readFileSync(new URL("../../../client/index.css", import.meta.url), "utf8");
    for (const [key, name] of Object.entries(CSS_NAMES) as [keyof typeof THEME_COLORS, string][]) {
      const declared = new RegExp(`${name}:\\s*([^;]+);`).exec(css)?.[1]?.trim();
      expect(declared, name).toBe(THEME_COLORS[key].css);
      expect(oklchToHex(THEME_COLORS[key].css), name).toBe(THEME_COLORS[key].hex);
    }
    // The links' darker cyan is the theme's hue.
    expect(oklchToHex("oklch(45% 0.09 215)")).toBe(MAIL_COLORS.link);
  });

  it("put together only pairs with a contrast of 4.5:1 or more (WCAG AA)", () => {
    const pairs: [string, string, string][] = [
      ["the shop's name on the band", MAIL_COLORS.bandText, MAIL_COLORS.band],
      ["a button's text", MAIL_COLORS.buttonText, MAIL_COLORS.button],
      ["a link on the page", MAIL_COLORS.link, MAIL_COLORS.paper],
      ["the text", MAIL_COLORS.text, MAIL_COLORS.paper],
      ["the footer", MAIL_COLORS.muted, MAIL_COLORS.paper],
    ];
    for (const [what, fg, bg] of pairs) expect(contrast(fg, bg), what).toBeGreaterThanOrEqual(4.5);
  });
});
