import { beforeAll, describe, expect, it } from "vitest";
import { createTestTunnel } from "../../../test/frp-fixtures";
import type { TestApp } from "../../../test/harness";
import { noon, pollerSuite, today } from "../../../test/poll-fixtures";
import { frpcFor } from "../../../test/sim-env";
import { addDays, shanghaiDayStart } from "../../shared/time";
import { pollNode } from "./poll-node";

/* Traffic across Shanghai midnight: yesterday's tail from frps's 7-day history, days skipped. */

const suite = pollerSuite();
const { simNode, customerOn, days, used, clientOn } = suite;
let t: TestApp;
beforeAll(() => {
  ({ t } = suite.get());
});

describe("traffic across midnight", () => {
  it("collects yesterday's last bytes across midnight from the 7-day history", async () => {
    const yesterday = addDays(today, -1);
    const { node, sim, u, c } = await clientOn();
    const name = `t_${u.tcp.tun_id}`;
    await c.visit(name, { bytesIn: 100, bytesOut: 10 });
    await pollNode(t.ctx, node.node_id, { now: noon(yesterday) });
    await c.visit(name, { bytesIn: 50, bytesOut: 5 }); // after the last poll of the day
    sim.rollover();
    await c.visit(name, { bytesIn: 30, bytesOut: 3 });
    const r = await pollNode(t.ctx, node.node_id, { now: noon(today) });
    expect(r?.charged).toBe(88);
    expect(await days(u.tcp.tun_id)).toEqual([
      { day: yesterday, traffic_in: 150, traffic_out: 15 },
      { day: today, traffic_in: 30, traffic_out: 3 },
    ]);
    expect(await used(u.uid)).toBe(198);
  });

  it("fills the days in between when the node was not polled for a while", async () => {
    const start = addDays(today, -3);
    const { node, sim, u, c } = await clientOn();
    const name = `t_${u.tcp.tun_id}`;
    await c.visit(name, { bytesIn: 10, bytesOut: 0 });
    await pollNode(t.ctx, node.node_id, { now: noon(start) });
    await c.visit(name, { bytesIn: 5, bytesOut: 0 });
    sim.rollover();
    await c.visit(name, { bytesIn: 7, bytesOut: 0 });
    sim.rollover(2);
    await c.visit(name, { bytesIn: 1, bytesOut: 0 });
    await pollNode(t.ctx, node.node_id, { now: noon(today) });
    expect((await days(u.tcp.tun_id)).map((d) => [d.day, d.traffic_in])).toEqual([
      [start, 15],
      [addDays(start, 1), 7],
      [today, 1],
    ]);
  });

  it("collects many proxies' tails over several polls, once each, and an old tail before a new one", async () => {
    const d0 = addDays(today, -2);
    const d1 = addDays(today, -1);
    const { node, sim } = await simNode();
    const u = await customerOn(node.node_id);
    const more = [
      await createTestTunnel(t, u.token, { node_id: node.node_id, tun_name: "b" }),
      await createTestTunnel(t, u.token, { node_id: node.node_id, tun_name: "c" }),
    ];
    const ids = [u.tcp.tun_id, ...more.map((x) => x.tun_id)];
    const c = await frpcFor(t, sim, u.token, node.node_id);
    await c.start();
    const visitAll = async (bytes: number) => {
      for (const id of ids) await c.visit(`t_${id}`, { bytesIn: bytes, bytesOut: 0 });
    };
    await visitAll(10);
    await pollNode(t.ctx, node.node_id, { now: noon(d0) });
    await visitAll(5); // after the last poll of d0
    sim.rollover();
    await visitAll(3);
    // the first poll of d1 notes three tails and collects one
    expect(await pollNode(t.ctx, node.node_id, { now: noon(d1), tailBatch: 1 })).toMatchObject({ tails: 1 });
    expect(await pollNode(t.ctx, node.node_id, { now: noon(d1, 30_000), tailBatch: 1 })).toMatchObject({
      tails: 1,
      charged: 5,
    });
    // one tail of d0 is still pending when d1 ends: it is collected before d1's own tail is noted
    await visitAll(2);
    sim.rollover();
    await visitAll(1);
    await pollNode(t.ctx, node.node_id, { now: noon(today), tailBatch: 0 });
    await pollNode(t.ctx, node.node_id, { now: noon(today, 30_000) });
    for (const id of ids) {
      expect((await days(id)).map((d) => [d.day, d.traffic_in])).toEqual([
        [d0, 15],
        [d1, 5],
        [today, 1],
      ]);
    }
    const pending = await t.db
      .selectFrom("proxy_counters")
      .select("proxy_name")
      .where("node_id", "=", node.node_id)
      .where("tail_day", "is not", null)
      .execute();
    expect(pending).toEqual([]);
    await c.stop();
  });

  it("leaves traffic for the next poll right around midnight", async () => {
    const { node, u, c } = await clientOn();
    await c.visit(`t_${u.tcp.tun_id}`, { bytesIn: 10, bytesOut: 0 });
    const r = await pollNode(t.ctx, node.node_id, { now: new Date(shanghaiDayStart(today).getTime() + 20_000) });
    expect(r).toMatchObject({ deferred: true, charged: 0, status: 1 });
    expect((await pollNode(t.ctx, node.node_id, { now: noon(today) }))?.charged).toBe(10);
  });
});
