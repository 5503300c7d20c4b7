import { pageRoute } from "@/lib/route-types";

/** Admin routes are relative to /admin. */
export const settingsRoutes = [pageRoute("setting", "站点设置", () => import("./pages/SettingsPage"), "SettingsPage")];
