import { pageRoute } from "@/lib/route-types";

/** Customer routes (absolute paths): /aipage is in the menu. */
export const assistantRoutes = [
  pageRoute("aipage", "frpc 助手", () => import("./pages/AssistantPage"), "AssistantPage"),
];
