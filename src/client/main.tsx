import "./index.css";
import { StrictMode, startTransition } from "react";
import { createRoot, hydrateRoot } from "react-dom/client";
import { createBrowserRouter } from "react-router";
import { RouterProvider } from "react-router/dom";
import { AppProviders } from "./app/providers.js";
import { routes } from "./app/router.js";

const container = document.getElementById("root");
if (!container) throw new Error("The page has no #root element to render the shop into.");

const router = createBrowserRouter(routes);
const app = (
  <StrictMode>
    <AppProviders>
      <RouterProvider router={router} />
    </AppProviders>
  </StrictMode>
);

/** Resolves once the router has loaded the first page's code (a lazy route) and can draw it. */
function initialized(router: ReturnType<typeof createBrowserRouter>): Promise<void> {
  if (router.state.initialized) return Promise.resolve();
  return new Promise((resolve) => {
    const stop = router.subscribe((state) => {
      if (!state.initialized) return;
      stop();
      resolve();
    });
  });
}

// A landing page arrives prerendered for its exact address (see prerender.tsx). React takes that
// markup over once the page's code is here; any other address is drawn from nothing.
const prerendered = container.dataset.prerendered;
if (prerendered !== undefined && prerendered === `${location.pathname}${location.search}`) {
  await initialized(router);
  // As a transition, hydration yields to the browser every few milliseconds instead of holding
  // the main thread for the whole page: the page is already drawn, so nothing waits on it.
  startTransition(() => {
    hydrateRoot(container, app);
  });
} else {
  // React replaces what the page came with (the top bar of index.html, or another address's markup).
  createRoot(container).render(app);
}
