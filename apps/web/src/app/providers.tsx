import { QueryClientProvider } from "@tanstack/react-query";
import type { ReactNode } from "react";
import { queryClient } from "@/api/query-client";
import { AntdRoot } from "@/components/AntdRoot";

/** App-wide providers: antd (zh_CN, theme), global messages, TanStack Query. */
export function Providers({ children }: { children: ReactNode }) {
  return (
    <AntdRoot>
      <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
    </AntdRoot>
  );
}
