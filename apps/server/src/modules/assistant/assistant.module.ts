import type { ModuleManifest } from "../../shared/module";
import { assistantRoutes } from "./assistant.routes";
import { assistantQuotaNotice } from "./notices";

/** The customers' assistant, which also tells a customer when 80 % of their traffic is used. */
export const assistantModule: ModuleManifest = {
  name: "assistant",
  routes: assistantRoutes,
  eventHandlers: [assistantQuotaNotice],
};
