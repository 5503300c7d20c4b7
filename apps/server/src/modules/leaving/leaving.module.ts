import type { ModuleManifest } from "../../shared/module";
import { eraseDueAccounts } from "./erasure";
import { leavingRoutes } from "./leaving.routes";
import { noPublishingWhileLeaving, noTunnelStartWhileLeaving } from "./leaving.service";

/** Leaving (docs/leaving.md): the customer's data export and the account's deletion after a cool-off. */
export const leavingModule: ModuleManifest = {
  name: "leaving",
  routes: leavingRoutes,
  tunnelStartGuards: [noTunnelStartWhileLeaving],
  publishGuards: [noPublishingWhileLeaving],
  jobs: () => [{ name: "leaving.erase", everyMs: 3_600_000, run: (ctx) => eraseDueAccounts(ctx) }],
};
