import type { TunnelView } from "@burrow/contract";
import { beforeAll, describe, expect, it } from "vitest";
import { createTestNode } from "../../../test/frp-fixtures";
import type { TestApp } from "../../../test/harness";
import { noon, pollerSuite, today } from "../../../test/poll-fixtures";
import { frpcFor } from "../../../test/sim-env";
import { frpRuntime } from "./frp.routes";
import { pollNode } from "./poll-node";

/* The old node's poll of a tunnel moved away while its frpc there still served it (tunnels.moved_node_id). */

const suite = pollerSuite();
const { simNode, customerOn, tunnel, used } = suite;
let t: TestApp;
let admin: string;
beforeAll(() => {
  ({ t, admin } = suite.get());
});

const movedHold = (tunId: number) =>
  t.db
    .selectFrom("tunnels")
    .select(["moved_node_id", "moved_run_id"])
    .where("tun_id", "=", tunId)
    .executeTakeFirstOrThrow();

describe("a moved tunnel on its old node", () => {
  it("is billed there until frps drops the proxy, keeps its new node's status, then its moved hold ends", async () => {
    const { node, sim } = await simNode();
    const there = await createTestNode(t, { host: "there.example.net" }, admin);
    const u = await customerOn(node.node_id);
    const c = await frpcFor(t, sim, u.token, node.node_id);
    await c.start();
    await frpRuntime(t.ctx).writer.flush();
    const name = `u_${u.uid}.t_${u.tcp.tun_id}`;
    sim.addTraffic(name, 1000, 3000);
    expect((await pollNode(t.ctx, node.node_id, { now: noon(today) }))?.charged).toBe(4000);

    const moved = await t.api<TunnelView>("POST", "/user/tun/move", {
      token: u.token,
      body: { tun_id: u.tcp.tun_id, node_id: there.node_id, remote_port: 0 },
    });
    expect(moved.body.code).toBe("SUCCESS");
    expect(await movedHold(u.tcp.tun_id)).toEqual({ moved_node_id: node.node_id, moved_run_id: c.runId });

    // The old frpc still serves it there: those bytes are the customer's too.
    sim.addTraffic(name, 500, 700);
    expect((await pollNode(t.ctx, node.node_id, { now: noon(today, 30_000) }))?.charged).toBe(1200);
    expect(await tunnel(u.tcp.tun_id)).toMatchObject({ traffic_in: 1500, traffic_out: 3700, status: 2, run_id: null });
    expect(await used(u.uid)).toBe(5200);
    expect((await movedHold(u.tcp.tun_id)).moved_node_id).toBe(node.node_id);

    // Its heartbeat is refused there; frps closes the proxy, and the next poll ends the hold.
    expect(await c.heartbeat()).toBe(false);
    expect(c.lastError).toContain("已迁移到其他节点");
    await sim.settle();
    expect((await pollNode(t.ctx, node.node_id, { now: noon(today, 60_000) }))?.charged).toBe(0);
    expect(await movedHold(u.tcp.tun_id)).toEqual({ moved_node_id: null, moved_run_id: null });
    expect(await tunnel(u.tcp.tun_id)).toMatchObject({ status: 2, run_id: null, traffic_in: 1500 });
    await c.stop();
  });
});
