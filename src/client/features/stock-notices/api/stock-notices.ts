import { useQuery } from "@tanstack/react-query";
import type { StockNotice, StockNoticePage } from "../../../../shared/stock-notices.js";
import { api } from "../../../lib/api.js";
import { useApiMutation } from "../../../lib/use-api-mutation.js";
import { useCursorPages } from "../../../lib/use-cursor-pages.js";

/** Every back-in-stock query starts with `all`: the dashboard's pages and a product page's own. */
const stockNoticeKeys = {
  all: ["stock-notices"] as const,
  pages: () => [...stockNoticeKeys.all, "pages"] as const,
  product: (productId: string) => [...stockNoticeKeys.all, "product", productId] as const,
};

const PAGE_SIZE = 10;

/** The customer's open subscriptions, a page at a time as they ask for more. */
export function useStockNoticePages() {
  return useCursorPages<StockNoticePage>(
    stockNoticeKeys.pages(),
    "/api/stock-notices",
    new URLSearchParams({ limit: String(PAGE_SIZE) }),
  );
}

/** The customer's open subscription to one product, if any. */
export function useProductStockNotice(productId: string) {
  return useQuery({
    queryKey: stockNoticeKeys.product(productId),
    queryFn: async ({ signal }) =>
      (await api<StockNoticePage>(`/api/stock-notices?limit=1&productId=${productId}`, { signal }))
        .items[0] ?? null,
  });
}

export function useSubscribe() {
  return useApiMutation(
    (productId: string) => api<StockNotice>("/api/stock-notices", { method: "POST", json: { productId } }),
    { invalidates: [stockNoticeKeys.all] },
  );
}

export function useCancelNotice() {
  return useApiMutation((id: string) => api<void>(`/api/stock-notices/${id}`, { method: "DELETE" }), {
    invalidates: [stockNoticeKeys.all],
  });
}

export function useUnsubscribe() {
  return useApiMutation((link: { id: string; token: string }) =>
    api<void>("/api/stock-notices/unsubscribe", { method: "POST", json: link }),
  );
}
