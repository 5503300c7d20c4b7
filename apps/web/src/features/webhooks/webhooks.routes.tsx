import { pageRoute } from "@/lib/route-types";

export const webhooksRoutes = [
  pageRoute("account/webhooks", "Webhook", () => import("./pages/WebhooksPage"), "WebhooksPage"),
];
