import { paths } from "../../../lib/paths.js";

/** Pages that make no sense to come back to once signed in. */
const ACCOUNT_PAGES: readonly string[] = [paths.login, paths.registration, paths.passwordReset];

function hasControlCharacter(value: string): boolean {
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);
    if (code < 0x20 || code === 0x7f) return true;
  }
  return false;
}

/**
 * The page to return to after signing in: the `redirect` value when it is a path on this site,
 * otherwise the home page. "//host", "/\host" and the like would leave the site, so they are refused.
 */
export function safeRedirect(value: string | null | undefined): string {
  if (
    !value?.startsWith("/") ||
    value.startsWith("//") ||
    value.includes("\\") ||
    hasControlCharacter(value)
  ) {
    return paths.home;
  }
  try {
    const url = new URL(value, window.location.origin);
    if (url.origin !== window.location.origin || ACCOUNT_PAGES.includes(url.pathname)) return paths.home;
    return `${url.pathname}${url.search}${url.hash}`;
  } catch {
    return paths.home;
  }
}

/** `path` carrying the same `redirect` parameter, so moving between account pages keeps the origin page. */
export function withRedirect(path: string, redirect: string | null): string {
  return redirect ? `${path}?redirect=${encodeURIComponent(redirect)}` : path;
}
