import type { AppContext } from "../../context";
import { type DomainEventOf, defineEventHandler } from "../../shared/outbox";
import { getPlanLimits } from "../subscriptions/quota";
import { type ChangeInput, insertChange } from "./uptime.repository";

/*
 * The history is copied from the domain events the owners record in the status change's own
 * transaction (tunnels/sessions.ts: tunnel.online / tunnel.offline, also on an operator's lock;
 * the frp poller: node.down / node.up): exact (one event per change, committed or dropped with it,
 * stamped with its time), nothing added to the frp hot path, and no import of uptime by the
 * owners. The copy is at least once, keyed by the event's id (docs/uptime.md).
 */

type StatusEvent = DomainEventOf<"tunnel.online" | "tunnel.offline" | "node.down" | "node.up">;

/**
 * Why a tunnel went offline. The writer knows a lock and a tunnel turned off; "the client went
 * away" is refined here: a customer whose quota is used up was cut off by the plugin (its Ping
 * refused), read within the dispatcher's interval of the change.
 */
async function offlineCause(ctx: AppContext, uid: number, told: string | undefined): Promise<string> {
  if (told && told !== "client") return told;
  const limits = await getPlanLimits(ctx.db, uid);
  return limits && limits.traffic_quota > 0 && limits.traffic_used >= limits.traffic_quota ? "quota" : "client";
}

async function changeOf(ctx: AppContext, e: StatusEvent): Promise<ChangeInput> {
  const base = { at: e.created_at, event_id: e.id };
  switch (e.type) {
    case "tunnel.online":
      return {
        ...base,
        subject: "tunnel",
        subject_id: e.payload.tun_id,
        node_id: e.payload.node_id,
        up: true,
        cause: null,
      };
    case "tunnel.offline":
      return {
        ...base,
        subject: "tunnel",
        subject_id: e.payload.tun_id,
        node_id: e.payload.node_id,
        up: false,
        cause: await offlineCause(ctx, e.payload.uid, e.payload.cause),
      };
    case "node.down":
    case "node.up": {
      // The node's own time of the health change (the poll's), in the event since it was recorded.
      const up = e.type === "node.up";
      const id = e.payload.node_id;
      return {
        ...base,
        at: e.payload.at,
        subject: "node",
        subject_id: id,
        node_id: id,
        up,
        cause: up ? null : "node_down",
      };
    }
  }
}

export const uptimeHistory = defineEventHandler({
  name: "uptime.history",
  types: ["tunnel.online", "tunnel.offline", "node.down", "node.up"],
  async handle(ctx, event) {
    await insertChange(ctx.db, await changeOf(ctx, event));
  },
});
