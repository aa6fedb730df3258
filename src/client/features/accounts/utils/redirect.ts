import { paths } from "../../../lib/paths.js";

/** Pages that make no sense to come back to once signed in. */
const ACCOUNT_PAGES: readonly string[] = [paths.login, paths.registration, paths.passwordReset].map((p) =>
  p.toLowerCase(),
);

/**
 * A fixed stand-in for the shop's origin: values are resolved against it, so the answer does not
 * depend on where the page runs (and needs no `window`). `.invalid` never names a real host.
 */
const BASE = new URL("http://gearhouse.invalid/");

function hasControlCharacter(value: string): boolean {
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);
    if (code < 0x20 || code === 0x7f) return true;
  }
  return false;
}

/**
 * The page to return to after signing in: the `redirect` value when it is a path on this site,
 * otherwise the home page. The value is judged as the browser would read it, not as written: it is
 * resolved against the shop's origin first (which drops tabs and newlines, turns `\` into `/` and
 * applies `.` and `..`), so "/.//host", "/\host", "/\t/host" and the like, which all lead to
 * another site, are refused. What is returned is path + search + hash only, never "//…" or "/\…".
 */
export function safeRedirect(value: string | null | undefined): string {
  // The resolving below already reads "/\t/host" as //host; a control character is refused anyway.
  if (!value || hasControlCharacter(value)) return paths.home;
  let url: URL;
  try {
    url = new URL(value, BASE);
  } catch {
    return paths.home;
  }
  if (url.origin !== BASE.origin) return paths.home;
  const target = `${url.pathname}${url.search}${url.hash}`;
  if (!target.startsWith("/") || target.startsWith("//") || target.startsWith("/\\")) return paths.home;
  // The router matches paths case-insensitively and with or without a trailing slash.
  const page = url.pathname.length > 1 ? url.pathname.replace(/\/+$/, "") : url.pathname;
  if (ACCOUNT_PAGES.includes(page.toLowerCase())) return paths.home;
  return target;
}

/** `path` carrying the same `redirect` parameter, so moving between account pages keeps the origin page. */
export function withRedirect(path: string, redirect: string | null): string {
  return redirect ? `${path}?redirect=${encodeURIComponent(redirect)}` : path;
}
