import type { ReactNode } from "react";
import { Navigate, useLocation } from "react-router";
import { useSession } from "../lib/auth.js";
import { loginPath } from "../lib/paths.js";
import { Spinner } from "./spinner.js";

/** Renders its children for a signed-in user; sends everyone else to log in, remembering the page. */
export function RequireAuth({ children }: { children: ReactNode }) {
  const { user, isPending } = useSession();
  const location = useLocation();
  if (isPending) return <Spinner />;
  if (!user) return <Navigate to={loginPath(location.pathname + location.search)} replace />;
  return children;
}
