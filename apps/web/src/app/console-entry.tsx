import "@/lib/zod-jitless";
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { RouterProvider } from "react-router/dom";
import { configureApiClient } from "@/api/client";
import { queryClient } from "@/api/query-client";
import { feedback } from "@/lib/feedback";
import { Providers } from "./providers";
import { router } from "./router";

/** Starts the console (router, React Query) in `container`, at the current address. */
export function startConsole(container: HTMLElement): void {
  configureApiClient({
    onSessionInvalid: () => {
      feedback.warning("登录已失效，请重新登录");
      // Clear cached user data once the console has unmounted, so nothing refetches with no token.
      void router.navigate("/login", { replace: true }).then(() => queryClient.clear());
    },
    onForbidden: () => {
      void router.navigate("/403", { replace: true });
    },
    // The account was banned: the ban, its reason and the way to appeal (issue 35 §11).
    onBanned: () => {
      void router.navigate("/appeal", { replace: true }).then(() => queryClient.clear());
    },
  });
  createRoot(container).render(
    <StrictMode>
      <Providers>
        <RouterProvider router={router} />
      </Providers>
    </StrictMode>,
  );
}
