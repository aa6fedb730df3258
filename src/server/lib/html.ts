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
