import { Outlet, ScrollRestoration, useMatches, useNavigation } from "react-router";
import { commonMessages } from "../../shared/messages/common.js";
import { Spinner } from "../components/spinner.js";
import { Navbar } from "./layout/navbar.js";
import { SiteFooter } from "./layout/site-footer.js";

/** Route handle flags read by the layout. */
export type RouteHandle = {
  /** The page is the footer itself (/footer), so the layout does not add a second one. */
  ownFooter?: boolean;
};

function NavigationProgress() {
  const navigation = useNavigation();
  if (navigation.state === "idle") return null;
  return (
    <div role="progressbar" aria-label={commonMessages.loading} className="fixed inset-x-0 top-0 z-50 h-1">
      <div className="bg-rgb h-full w-full animate-pulse" />
    </div>
  );
}

export function RootLayout() {
  const matches = useMatches();
  const ownFooter = matches.some((match) => (match.handle as RouteHandle | undefined)?.ownFooter);
  return (
    <div className="flex min-h-dvh flex-col">
      <a href="#main" className="btn btn-primary fixed top-2 left-2 z-50 -translate-y-24 focus:translate-y-0">
        {commonMessages.nav.skipToContent}
      </a>
      <NavigationProgress />
      <Navbar />
      <main id="main" tabIndex={-1} className="flex-1 focus:outline-none">
        <Outlet />
      </main>
      {ownFooter ? null : <SiteFooter />}
      <ScrollRestoration />
    </div>
  );
}

/** Shown while the code of the first page a visitor opens is still loading. */
export function RootFallback() {
  return (
    <div className="flex min-h-dvh flex-col">
      <Navbar />
      <main id="main" className="flex-1">
        <Spinner />
      </main>
    </div>
  );
}
