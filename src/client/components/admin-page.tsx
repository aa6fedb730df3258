import type { ReactNode } from "react";
import { useSession } from "../lib/auth.js";
import { AdminOnly } from "./admin-only.js";
import { DashboardHeading } from "./dashboard-heading.js";

type Props = {
  title: string;
  lead: string;
  /** Shown to everyone under the heading, e.g. the way back to the list. */
  above?: ReactNode;
  /** The page itself, drawn for an admin only. */
  children: ReactNode;
};

/**
 * An admin page: its heading, then the page for an admin and the admin-only notice for anyone else.
 * The role decides what a customer sees here; the API would answer them 403 anyway.
 */
export function AdminPage({ title, lead, above, children }: Props) {
  const { user } = useSession();
  return (
    <>
      <DashboardHeading title={title} lead={lead} />
      {above}
      {user?.role === "admin" ? children : <AdminOnly />}
    </>
  );
}
