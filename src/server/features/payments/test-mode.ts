import { paymentMessages } from "../../../shared/messages/payments.js";

const HTML_ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" };
const escapeHtml = (text: string) => text.replace(/[&<>"]/g, (c) => HTML_ESCAPES[c] ?? c);

/**
 * The banner every page shows while the sandbox takes payments (config.payments), as markup for
 * the top of <body>: a labelled region, so it is found by assistive technology and sits inside a
 * landmark like the rest of the page.
 */
export function testModeBanner(): string {
  const text = paymentMessages.page.testModeBanner;
  return `<aside class="test-mode-banner" aria-label="${escapeHtml(paymentMessages.page.testModeLabel)}">${escapeHtml(text)}</aside>`;
}
