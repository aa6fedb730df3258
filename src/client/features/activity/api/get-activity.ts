import type { ActivityPage } from "../../../../shared/activity.js";
import { useCursorPages } from "../../../lib/use-cursor-pages.js";

/** The activity log's entries that match `query` (the API's), newest first, a keyset page at a time. */
export function useActivity(query: URLSearchParams) {
  return useCursorPages<ActivityPage>(["activity", query.toString()], "/api/admin/activity", query);
}
