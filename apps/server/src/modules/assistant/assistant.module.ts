import type { ModuleManifest } from "../../shared/module";
import { assistantRoutes } from "./assistant.routes";

/**
 * The customers' assistant. It answers questions only: what the console tells a customer of itself
 * (traffic at 80 %, a sign-in from a new device, …) reaches them through notices, the one channel
 * of every event (docs/notices.md), never as an assistant conversation too.
 */
export const assistantModule: ModuleManifest = {
  name: "assistant",
  routes: assistantRoutes,
};
