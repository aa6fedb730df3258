import { describe, expect, it } from "vitest";
import { paths } from "../../../lib/paths.js";
import { safeRedirect } from "./redirect.js";

const HOME = paths.home;

/**
 * /login?redirect=…, never an open redirect: whatever the value, signing in lands on a path of this
 * site. Values that lead elsewhere once the browser resolves them land on the home page; a path of
 * the site comes back as path + search + hash.
 */
const CASES: [label: string, value: string | null | undefined, expected: string][] = [
  // Another host, written so that a check of the raw text misses it.
  ["protocol-relative", "//evil.example", HOME],
  ["three slashes", "///evil.example", HOME],
  ["slash, backslash", "/\\evil.example", HOME],
  ["slash, backslash, slash", "/\\/evil.example", HOME],
  ["two backslashes", "\\\\evil.example", HOME],
  ["dot segment before a double slash", "/.//evil.example", HOME],
  ["dot-dot segment before a double slash", "/..//evil.example", HOME],
  ["encoded dot-dot segment before a double slash", "/%2e%2e//evil.example", HOME],
  ["backslashed dot-dot segments climbing to a double slash", "/dashboard\\..\\..\\/evil.example", HOME],
  ["a tab inside the double slash", "/\t/evil.example", HOME],
  ["a newline inside the double slash", "/\n/evil.example", HOME],
  ["a carriage return and newline inside the double slash", "/\r\n/evil.example", HOME],
  ["a leading space before a double slash", " //evil.example", HOME],
  ["a leading tab before a double slash", "\t//evil.example", HOME],
  ["the resolving base itself with a double slash", "http://gearhouse.invalid//evil.example", HOME],
  // Another origin or no origin at all.
  ["absolute https URL", "https://evil.example", HOME],
  ["absolute http URL with a path", "http://evil.example/dashboard", HOME],
  ["scheme-relative https without slashes", "https:evil.example", HOME],
  ["javascript: URL", "javascript:alert(1)", HOME],
  ["javascript: URL, mixed case", "JaVaScRiPt:alert(1)", HOME],
  ["javascript: URL behind a tab", "java\tscript:alert(1)", HOME],
  ["data: URL", "data:text/html,<script>alert(1)</script>", HOME],
  // Nothing.
  ["empty", "", HOME],
  ["null", null, HOME],
  ["undefined", undefined, HOME],
  // Encoded slashes and backslashes stay text inside one path of this site.
  ["encoded double slash", "%2F%2Fevil.example", "/%2F%2Fevil.example"],
  ["encoded backslash", "/%5Cevil.example", "/%5Cevil.example"],
  ["http: without slashes reads as a path here", "http:evil.example", "/evil.example"],
  // Paths of this site.
  ["a dashboard page", "/dashboard/myOrders", "/dashboard/myOrders"],
  [
    "query and hash kept",
    "/tools?category=mice&sort=price-asc#list",
    "/tools?category=mice&sort=price-asc#list",
  ],
  [
    "a product with a hash",
    "/tool/3f0c8a5e-0000-4000-8000-000000000001#reviews",
    "/tool/3f0c8a5e-0000-4000-8000-000000000001#reviews",
  ],
  ["dot segments resolved", "/dashboard/../tools", "/tools"],
  ["a relative path, resolved from the root", "dashboard/myProfile", "/dashboard/myProfile"],
  ["the home page", "/", "/"],
  ["a query only", "?page=2", "/?page=2"],
  // Account pages make no sense to come back to.
  ["the login page", "/login?redirect=/dashboard", HOME],
  ["the login page, other case and a trailing slash", "/LOGIN/", HOME],
  ["the registration page", "/registration", HOME],
  ["the password reset page", "/passwordReset?token=x", HOME],
];

describe("safeRedirect", () => {
  it.each(CASES)("%s: %j → %s", (_label, value, expected) => {
    expect(safeRedirect(value)).toBe(expected);
  });

  it.each(CASES)("%s: %j lands on a path of this site", (_label, value) => {
    const target = safeRedirect(value);
    expect(target.startsWith("/")).toBe(true);
    expect(target.startsWith("//")).toBe(false);
    expect(target.startsWith("/\\")).toBe(false);
    // Read from any page of the shop, the target stays on the shop.
    for (const page of ["https://shop.example/login?redirect=x", "http://localhost:3000/dashboard/users"]) {
      const resolved = new URL(target, page);
      expect(resolved.origin).toBe(new URL(page).origin);
      expect(`${resolved.pathname}${resolved.search}${resolved.hash}`).toBe(target);
    }
  });

  it("has a table of at least 20 cases", () => {
    expect(CASES.length).toBeGreaterThanOrEqual(20);
  });
});
