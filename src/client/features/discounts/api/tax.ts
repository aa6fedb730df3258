import { queryOptions, useQuery } from "@tanstack/react-query";
import type { TaxSettings, TaxSettingsInput } from "../../../../shared/discounts.js";
import { api, fetcherOf } from "../../../lib/api.js";
import { useApiMutation } from "../../../lib/use-api-mutation.js";
import { discountKeys } from "./keys.js";

const TAX = "/api/admin/settings/tax";

export function useTaxSettings() {
  return useQuery(queryOptions({ queryKey: discountKeys.tax(), queryFn: fetcherOf<TaxSettings>(TAX) }));
}

/** Saves the settings; the answer is what is saved now. */
export function useSaveTaxSettings() {
  return useApiMutation((input: TaxSettingsInput) => api<TaxSettings>(TAX, { method: "PUT", json: input }), {
    onSuccess: (saved, _input, queryClient) => queryClient.setQueryData(discountKeys.tax(), saved),
  });
}
