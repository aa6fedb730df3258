import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { type ReactNode, useState } from "react";
import { Toaster } from "sonner";
import { TOAST_AUTO_CLOSE_MS } from "../../shared/constants.js";
import { ApiError } from "../lib/api.js";

function createQueryClient() {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: 60_000,
        // A 4xx answer will not change on a second try; a dropped connection might.
        retry: (failureCount, error) =>
          failureCount < 1 && !(error instanceof ApiError && error.status >= 400 && error.status < 500),
        refetchOnWindowFocus: false,
      },
    },
  });
}

export function AppProviders({ children }: { children: ReactNode }) {
  const [queryClient] = useState(createQueryClient);
  return (
    <QueryClientProvider client={queryClient}>
      {children}
      <Toaster theme="dark" richColors closeButton position="bottom-right" duration={TOAST_AUTO_CLOSE_MS} />
    </QueryClientProvider>
  );
}
