/**
 * The shop's name and colours, for what cannot read the site's style sheet: the mails (inline
 * styles only, server/features/mail/templates.tsx and lib/mail-frame.ts). The colours are the
 * daisyUI theme "gearhouse" of src/client/index.css, each kept here with the oklch() it is there and
 * its sRGB hex, which mail clients understand; server/features/mail/brand.test.ts checks that both still agree with the
 * style sheet, and that every pair a mail puts together has a contrast of at least 4.5:1 (WCAG AA).
 */
export const BRAND_NAME = "Gearhouse";

/** The theme's colours the mails use: `css` as in index.css, `hex` the same in sRGB. */
export const THEME_COLORS = {
  /** --color-base-100: the site's background; the mails' header band. */
  base100: { css: "oklch(19% 0.024 272)", hex: "#10131f" },
  /** --color-base-content: text on the site's background. */
  baseContent: { css: "oklch(94% 0.012 272)", hex: "#e8ebf3" },
  /** --color-primary: the site's cyan (buttons, the current page, the shop's name). */
  primary: { css: "oklch(80% 0.14 205)", hex: "#00d7e8" },
  /** --color-primary-content: text on the cyan. */
  primaryContent: { css: "oklch(17% 0.03 250)", hex: "#05101c" },
} as const;

/**
 * The mails' palette: a white page (read in light mail clients) framed by the site's dark band and
 * cyan. The cyan itself is too light for text on white (1.7:1), so links use a darker cyan of the
 * same hue (`link`, oklch(45% 0.09 215)); the other greys are the neutral text colours of the mails.
 */
export const MAIL_COLORS = {
  band: THEME_COLORS.base100.hex,
  bandText: THEME_COLORS.primary.hex,
  button: THEME_COLORS.primary.hex,
  buttonText: THEME_COLORS.primaryContent.hex,
  link: "#006174",
  text: "#1f2937",
  muted: "#4b5563",
  line: "#e5e7eb",
  page: "#f3f4f6",
  paper: "#ffffff",
} as const;
