import { Redis } from "ioredis";
import { describe, expect, it } from "vitest";
import { adminSuite } from "../../../test/admin-fixtures";
import { createTestNode, createTestTunnel, registerWithPlan } from "../../../test/frp-fixtures";
import type { TestApp } from "../../../test/harness";
import { createEventBus, type EventBus } from "../../shared/events";
import { FrpDecisionCache, secretEquals, type UserEntry } from "./decision-cache";

const REDIS_URL = process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379";

let t: TestApp;
let admin: string;
adminSuite((ready) => ({ t, admin } = ready), { FRP_POLLER: "true", FRP_POLL_INTERVAL: "5" });

describe("secretEquals", () => {
  it("is true only for the same string", () => {
    expect(secretEquals("a1b2c3d4", "a1b2c3d4")).toBe(true);
    expect(secretEquals("a1b2c3d5", "a1b2c3d4")).toBe(false);
    expect(secretEquals("x1b2c3d4", "a1b2c3d4")).toBe(false);
    expect(secretEquals("a1b2c3d", "a1b2c3d4")).toBe(false);
    expect(secretEquals("", "a1b2c3d4")).toBe(false);
    expect(secretEquals("令牌", "令牌")).toBe(true);
    expect(secretEquals("令牌", "令碑")).toBe(false);
  });
});

/** Waits until `read` gives something `ok` accepts (pub/sub is asynchronous). */
async function eventually<T>(read: () => T | Promise<T>, ok: (v: T) => boolean, ms = 3000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await read();
    if (ok(v) || Date.now() > end) return v;
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe("the decision cache across processes", () => {
  it("drops a user in another process when a change is published through Redis", async () => {
    const conns = [new Redis(REDIS_URL), new Redis(REDIS_URL)];
    const buses: EventBus[] = conns.map((c) => createEventBus(c));
    const [here, there] = buses;
    try {
      const other = new FrpDecisionCache(t.db, there);
      const u = await registerWithPlan(t);
      const before = (await other.user(u.uid)) as UserEntry;
      expect(before.active).toBe(true);
      // Give the subscriber a moment to be connected before publishing.
      await new Promise((r) => setTimeout(r, 200));
      await t.db.updateTable("users").set({ status: -1 }).where("uid", "=", u.uid).execute();
      here.emit("user.changed", { uid: u.uid });
      const after = await eventually(
        () => other.user(u.uid),
        (e) => e?.active === false,
      );
      expect(after?.active).toBe(false);
      const node = await createTestNode(t, {}, admin);
      const v = await registerWithPlan(t);
      const tun = await createTestTunnel(t, v.token, { node_id: node.node_id });
      expect(((await other.user(v.uid)) as UserEntry).tunnels.get(tun.tun_id)?.status).toBe(2);
      await t.db.updateTable("tunnels").set({ status: 3 }).where("tun_id", "=", tun.tun_id).execute();
      here.emit("tunnel.changed", { tun_id: tun.tun_id, uid: v.uid });
      const locked = await eventually(
        () => other.user(v.uid),
        (e) => e?.tunnels.get(tun.tun_id)?.status === 3,
      );
      expect(locked?.tunnels.get(tun.tun_id)?.status).toBe(3);
    } finally {
      for (const b of buses) await b.close();
      for (const c of conns) c.disconnect();
    }
  });
});

describe("the poller job", () => {
  it("starts with the server when asked (FRP_POLLER=true) and polls the nodes", async () => {
    const seeded = await t.db.selectFrom("nodes").select("node_id").orderBy("node_id").executeTakeFirstOrThrow();
    const row = await eventually(
      () => t.db.selectFrom("node_runtime").selectAll().where("node_id", "=", seeded.node_id).executeTakeFirst(),
      (r) => Boolean(r?.last_poll_at),
      10_000,
    );
    expect(row?.last_poll_at).toBeTruthy();
  });
});
