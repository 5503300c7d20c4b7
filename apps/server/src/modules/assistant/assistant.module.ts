import type { ModuleManifest } from "../../shared/module";
import { assistantRoutes } from "./assistant.routes";
import { assistantNewDeviceNotice, assistantQuotaNotice } from "./notices";

/** The customers' assistant, which also tells a customer when 80 % of their traffic is used or a new device signed in. */
export const assistantModule: ModuleManifest = {
  name: "assistant",
  routes: assistantRoutes,
  eventHandlers: [assistantQuotaNotice, assistantNewDeviceNotice],
};
