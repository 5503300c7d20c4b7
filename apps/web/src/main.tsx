import "@/lib/zod-jitless";
import "nprogress/nprogress.css";
import "./styles.css";
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { RouterProvider } from "react-router/dom";
import { configureApiClient } from "@/api/client";
import { queryClient } from "@/api/query-client";
import { Providers } from "@/app/providers";
import { router } from "@/app/router";
import { feedback } from "@/lib/feedback";

configureApiClient({
  onSessionInvalid: () => {
    feedback.warning("登录已失效，请重新登录");
    // Clear cached user data once the console has unmounted, so nothing refetches with no token.
    void router.navigate("/login", { replace: true }).then(() => queryClient.clear());
  },
  onForbidden: () => {
    void router.navigate("/403", { replace: true });
  },
});

const root = document.getElementById("root");
if (!root) throw new Error("#root is missing from index.html");

createRoot(root).render(
  <StrictMode>
    <Providers>
      <RouterProvider router={router} />
    </Providers>
  </StrictMode>,
);
