import { messages } from "../../../shared/messages.js";

const HTML_ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" };
const escapeHtml = (text: string) => text.replace(/[&<>"]/g, (c) => HTML_ESCAPES[c] ?? c);

/**
 * The banner every page shows while the sandbox takes payments (config.payments), as markup for
 * the top of <body>: a labelled region, so it is found by assistive technology and sits inside a
 * landmark like the rest of the page.
 */
export function testModeBanner(): string {
  const text = messages.payment.page.testModeBanner;
  return `<aside class="test-mode-banner" aria-label="${escapeHtml(messages.payment.page.testModeLabel)}">${escapeHtml(text)}</aside>`;
}

/**
 * `html` with `markup` first in its <body>. A document without a <body> tag (HTML allows leaving
 * it out) gets it after its </head>, or failing that at its start, where the parser opens the body.
 */
export function putFirstInBody(html: string, markup: string): string {
  const at = insertionPoint(html);
  return html.slice(0, at) + markup + html.slice(at);
}

function insertionPoint(html: string): number {
  const body = html.search(/<body[\s>]/i);
  if (body >= 0) return html.indexOf(">", body) + 1;
  const headEnd = html.search(/<\/head>/i);
  return headEnd >= 0 ? headEnd + "</head>".length : 0;
}
