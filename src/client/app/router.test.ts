import { matchRoutes, type RouteObject } from "react-router";
import { describe, expect, it } from "vitest";
import { CLIENT_ROUTE_PATTERNS, isClientRoute } from "../../shared/client-routes.js";
import { routes } from "./router.js";

/** Every path the router names, its catch-all aside. */
function namedPaths(list: RouteObject[]): string[] {
  return list.flatMap((route) => [
    ...(route.path && route.path !== "*" ? [route.path] : []),
    ...namedPaths(route.children ?? []),
  ]);
}

/** Whether the router draws a page of its own for `pathname`, not the not-found page. */
function routerDraws(pathname: string): boolean {
  const matches = matchRoutes(routes, pathname) ?? [];
  return matches.length > 0 && matches.at(-1)?.route.path !== "*";
}

describe("the server's list of client routes", () => {
  it("names exactly the router's paths", () => {
    expect([...CLIENT_ROUTE_PATTERNS].sort()).toEqual([...new Set(namedPaths(routes))].sort());
  });

  it("matches a path as the router does", () => {
    const samples = [
      ...CLIENT_ROUTE_PATTERNS.map((pattern) => pattern.replaceAll(":id", "3f1c2b8e")),
      "/login/",
      "/LOGIN",
      "/tool/a%20b",
      "/tool",
      "/tool/",
      "/tool/a/b",
      "/dashboard/myOrders",
      "/dashboard/payment",
      "/no/such/page",
      "/aboutx",
      "/about/x",
      "/.well-known/x",
    ];
    for (const pathname of samples) expect(isClientRoute(pathname), pathname).toBe(routerDraws(pathname));
  });
});
