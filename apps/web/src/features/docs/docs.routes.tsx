import { pageRoute } from "@/lib/route-types";

/** Customer routes (absolute paths): /doc is in the menu, its pages open to any signed-in customer. */
export const docsRoutes = [
  pageRoute("doc", "使用文档", () => import("./pages/DocPage"), "DocPage"),
  pageRoute("doc/:slug", "使用文档", () => import("./pages/DocPage"), "DocPage", { access: "signedIn" }),
];
