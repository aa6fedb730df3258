import { adminMessages } from "../../shared/messages/admin.js";
import { ApiError } from "../lib/api.js";
import { LoadError } from "./load-error.js";

/** Shown on an admin page to a signed-in customer: the route is open to them, the data is not. */
export function AdminOnly() {
  return (
    <div role="alert" className="alert alert-warning alert-soft flex flex-col items-start gap-1">
      <h2 className="text-lg font-semibold">{adminMessages.only}</h2>
      <p>{adminMessages.onlyLead}</p>
    </div>
  );
}

/** Why an admin page's data did not load: the admin-only notice for a 403, otherwise a retry. */
export function AdminLoadError({ error, onRetry }: { error: unknown; onRetry: () => void }) {
  if (error instanceof ApiError && error.status === 403) return <AdminOnly />;
  return <LoadError error={error} onRetry={onRetry} />;
}
