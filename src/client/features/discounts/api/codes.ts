import type {
  DiscountCode,
  DiscountCodeDetail,
  DiscountCodeInput,
  DiscountCodePage,
} from "../../../../shared/discounts.js";
import { api } from "../../../lib/api.js";
import { useApiMutation } from "../../../lib/use-api-mutation.js";
import { useCursorPages } from "../../../lib/use-cursor-pages.js";
import { discountKeys } from "./keys.js";

const codePath = (id: string) => `/api/admin/discount-codes/${encodeURIComponent(id)}`;

/** The codes, newest first ("Older codes" asks for the next page). */
export const useDiscountCodes = () =>
  useCursorPages<DiscountCodePage>(discountKeys.codes(), "/api/admin/discount-codes");

/** A code (on every page of the answer) and its uses, newest first, a page at a time. */
export const useDiscountCode = (id: string) =>
  useCursorPages<DiscountCodeDetail>(discountKeys.code(id), codePath(id));

/** Makes a code: the list shows it first. */
export function useCreateDiscountCode() {
  return useApiMutation(
    (input: DiscountCodeInput) =>
      api<DiscountCode>("/api/admin/discount-codes", { method: "POST", json: input }),
    { invalidates: [discountKeys.codes()] },
  );
}

/** Ends a code now: its page and the list show it ended. */
export function useEndDiscountCode() {
  return useApiMutation(
    (id: string) => api<DiscountCode>(`${codePath(id)}/end`, { method: "POST", json: {} }),
    {
      invalidates: (id) => [discountKeys.code(id), discountKeys.codes()],
    },
  );
}
