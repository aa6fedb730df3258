// Build-time only (vite.config.ts, landingPages): renders a public page to HTML the way the browser's
// first render draws it, so the page shows before its JavaScript has loaded. main.tsx then hydrates
// that markup instead of drawing the page again. Data the page asks the API for is not part of it:
// like the first render in the browser, the prerendered page shows it loading.
import { StrictMode } from "react";
import { renderToString } from "react-dom/server";
import { createStaticHandler, createStaticRouter, StaticRouterProvider } from "react-router";
import { AppProviders } from "./app/providers.js";
import { routes } from "./app/router.js";

export async function prerender(pathname: string): Promise<string> {
  const handler = createStaticHandler(routes);
  // Loads the route's lazy module, as the browser's router does before its first render.
  const context = await handler.query(new Request(new URL(pathname, "http://prerender.invalid")));
  if (context instanceof Response) throw new Error(`${pathname} redirects: it cannot be prerendered`);
  if (context.errors) throw new Error(`${pathname} failed to render: ${JSON.stringify(context.errors)}`);
  const router = createStaticRouter(handler.dataRoutes, context);
  return renderToString(
    <StrictMode>
      <AppProviders>
        {/* No inline hydration script: the CSP allows none, and these routes have no loader data. */}
        <StaticRouterProvider router={router} context={context} hydrate={false} />
      </AppProviders>
    </StrictMode>,
  );
}
