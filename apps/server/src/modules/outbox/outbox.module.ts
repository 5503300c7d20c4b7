import type { ModuleManifest } from "../../shared/module";
import { AppState } from "../../shared/module";
import { deadDeliveries } from "../../shared/outbox-admin";
import { outboxJob, startOutboxWakeups } from "../../shared/outbox-dispatch";
import { outboxRoutes } from "./outbox.routes";

/** This app's wake-up listener: its stop function while it runs. */
const wakeups = new AppState<{ stop?: () => Promise<void> }>("outbox.wakeups", () => ({}));

/**
 * The domain-event outbox's runtime (shared/outbox.ts, shared/outbox-dispatch.ts): dispatch right
 * after a commit that recorded events, the lease-guarded job for what is left (a process died, a
 * retry came due) and pruning, and the dead-letter page for Managers.
 */
export const outboxModule: ModuleManifest = {
  name: "outbox",
  state: [wakeups],
  routes: outboxRoutes,
  jobs: () => [outboxJob],
  // a dead delivery waits for a Manager to retry it (事件投递 is theirs alone)
  waiting: [
    { key: "outbox", label: "投递失败的事件", path: "/outbox?status=dead", count: deadDeliveries, managers: true },
  ],
  background: (config) => config.OUTBOX_DISPATCH,
  start(ctx) {
    wakeups.of(ctx).stop = startOutboxWakeups(ctx);
  },
  async stop(ctx) {
    await wakeups.of(ctx).stop?.();
  },
};
