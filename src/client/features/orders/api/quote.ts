import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import type { Quote, QuoteInput } from "../../../../shared/pricing.js";
import { api } from "../../../lib/api.js";
import { orderKeys } from "../../../lib/query-keys.js";

/**
 * What booking `quantity` units with `discountCode` would cost now (POST /api/orders/quote): the
 * volume price, the code's discount and the tax, by the server's own rules. Asked only for a
 * quantity the form accepts; the figures shown stay until the next answer replaces them.
 */
export function useQuote(input: QuoteInput, enabled: boolean) {
  // A quantity typed digit by digit is asked for once the typing pauses.
  const [quantity, setQuantity] = useState(input.quantity);
  useEffect(() => {
    const timer = setTimeout(() => setQuantity(input.quantity), 250);
    return () => clearTimeout(timer);
  }, [input.quantity]);
  const asked = { ...input, quantity };
  return useQuery({
    queryKey: orderKeys.quote(asked.productId, asked.quantity, asked.discountCode),
    queryFn: ({ signal }) => api<Quote>("/api/orders/quote", { method: "POST", json: asked, signal }),
    enabled: enabled && quantity === input.quantity,
    retry: false,
    staleTime: 30_000,
    placeholderData: keepPreviousData,
  });
}
