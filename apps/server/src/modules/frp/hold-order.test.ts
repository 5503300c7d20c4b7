import type { PluginResponse, TunnelView } from "@burrow/contract";
import { FrpPlugin } from "@burrow/frp-decision";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { adminSuite } from "../../../test/admin-fixtures";
import { createTestTunnel, registerWithPlan, setPlan } from "../../../test/frp-fixtures";
import type { TestApp } from "../../../test/harness";
import { listen, type SimNode, startSimNode } from "../../../test/sim-env";
import { nowIso, shanghaiDate, shanghaiDayStart } from "../../shared/time";
import { transact } from "../../shared/tx";
import { tunnelSeenOnline, tunnelsOffline, tunnelsOnline } from "../tunnels/sessions";
import { FrpDecisionCache } from "./decision-cache";
import { frpRuntime } from "./frp.routes";
import { FrpWriter } from "./frp-writer";
import { pollNode } from "./poll-node";

/*
 * frps sends CloseProxy from a goroutine (frp-protocol.md Appendix C): after frpc reconnects under
 * the same run id, the old session's CloseProxy can reach Burrow after the new session's NewProxy
 * of the same proxy. Who holds the proxy must come out the same in either order, in one API
 * process or split over several (holds are in the database, decisions cached per process).
 */

let t: TestApp;
let admin: string;
let s: SimNode;
let base: string;

adminSuite((ready) => ({ t, admin } = ready));
beforeAll(async () => {
  // A node whose dashboard (the simulator's) the poller can read; the plugin calls below are
  // posted by the test itself, so the dashboard never shows these proxies online.
  s = await startSimNode(t, admin);
  base = await listen(t);
});
afterAll(async () => {
  await s.sim.stop();
});

const RUN_ID = "5a0c1e7f3b9d2468";
const noon = () => new Date(shanghaiDayStart(shanghaiDate()).getTime() + 12 * 3600_000);

interface Customer {
  uid: number;
  token: string;
  user: string;
  frpToken: string;
  tcp: TunnelView;
}

async function customer(): Promise<Customer> {
  const u = await t.register();
  await setPlan(t, u.uid, { bandwidth: 10 });
  const info = await t.api<{ frp_token: string }>("GET", "/user/userInfo", { token: u.token });
  const tcp = await createTestTunnel(t, u.token, { node_id: s.node.node_id, protocol: "tcp", local_port: 22 });
  return { uid: u.uid, token: u.token, user: `u_${u.uid}`, frpToken: info.body.data.frp_token, tcp };
}

const userInfo = (c: Customer, runId = RUN_ID) => ({ user: c.user, metas: { token: c.frpToken }, run_id: runId });
const proxy = (c: Customer, runId = RUN_ID) => ({
  user: userInfo(c, runId),
  proxy_name: `${c.user}.t_${c.tcp.tun_id}`,
  proxy_type: "tcp",
  remote_port: c.tcp.remote_port,
});
const closing = (c: Customer, runId = RUN_ID) => ({
  user: userInfo(c, runId),
  proxy_name: `${c.user}.t_${c.tcp.tun_id}`,
});

/** An API process: answers plugin calls and writes behind what it learns. */
interface Process {
  call(op: string, content: unknown): Promise<PluginResponse>;
  flush(): Promise<void>;
}

/** The test app itself, called over HTTP exactly as frps calls it. */
const main: Process = {
  async call(op, content) {
    const n = s.node;
    const res = await fetch(`${base}/api/frp/plugin/${n.node_id}/${n.plugin_secret}?op=${op}&version=0.1.0`, {
      method: "POST",
      headers: { "content-type": "application/json", "user-agent": "Go-http-client/1.1" },
      body: JSON.stringify({ version: "0.1.0", op, content }),
    });
    expect(res.status).toBe(200);
    return (await res.json()) as PluginResponse;
  },
  flush: () => frpRuntime(t.ctx).writer.flush(),
};

/** A second API process on the same database and events: its own decision cache and writer. */
function secondProcess(): Process {
  const cache = new FrpDecisionCache(t.ctx.db, t.ctx.events, undefined, (db, uid) => t.ctx.domains.usable(db, uid));
  const writer = new FrpWriter(t.ctx);
  const plugin = new FrpPlugin(cache, writer, t.ctx.log);
  return {
    async call(op, content) {
      const a = await plugin.handle(s.node.node_id, s.node.plugin_secret, { version: "0.1.0", op, content });
      expect(a.status).toBe(200);
      return a.body;
    },
    flush: () => writer.flush(),
  };
}

const row = (id: number) =>
  t.db.selectFrom("tunnels").select(["status", "run_id"]).where("tun_id", "=", id).executeTakeFirstOrThrow();
/** CloseProxy calls of earlier proxies the holder still owes, as written. */
const staleCloses = async (id: number) =>
  (await t.db.selectFrom("tunnels").select("stale_closes").where("tun_id", "=", id).executeTakeFirstOrThrow())
    .stale_closes;

const lock = (c: Customer) =>
  t.api("PATCH", "/super/tun", { token: admin, body: { tun_id: c.tcp.tun_id, status: 3, banned_reason: "abuse" } });

/** frpc's next heartbeat on the node (and another session's of the same customer) is refused for the lock. */
async function pingsRefused(p: Process, c: Customer) {
  for (const runId of [RUN_ID, "ffffffffffffffff"]) {
    const ping = await p.call("Ping", { user: userInfo(c, runId) });
    expect(ping.reject, `Ping of ${runId}`).toBe(true);
    expect(ping.reject_reason).toContain("锁定");
  }
}

/** A customer whose tunnel is up, held by RUN_ID (the first session, written). */
async function connected(p: Process = main): Promise<Customer> {
  const c = await customer();
  expect((await p.call("NewProxy", proxy(c))).reject).toBe(false);
  await p.flush();
  expect(await row(c.tcp.tun_id)).toEqual({ status: 1, run_id: RUN_ID });
  return c;
}

const ORDERS = [
  ["the new session's NewProxy, then the old session's CloseProxy", true],
  ["the old session's CloseProxy, then the new session's NewProxy", false],
] as const;

describe("a reconnect under the same run id, in one process", () => {
  for (const [order, newFirst] of ORDERS) {
    it(`keeps the new session as the holder: ${order}`, async () => {
      const c = await connected();
      if (newFirst) {
        expect((await main.call("NewProxy", proxy(c))).reject).toBe(false);
        expect(await main.call("CloseProxy", closing(c))).toEqual({ reject: false, unchange: true });
      } else {
        await main.call("CloseProxy", closing(c));
        expect((await main.call("NewProxy", proxy(c))).reject).toBe(false);
      }
      // Locked before anything was written: the next heartbeat is refused.
      await lock(c);
      await pingsRefused(main, c);
      await main.flush();
      expect(await row(c.tcp.tun_id)).toEqual({ status: 3, run_id: RUN_ID });
      expect(await staleCloses(c.tcp.tun_id)).toBe(0);
      await pingsRefused(main, c);
      // A process that reads the hold from the database refuses it too.
      await pingsRefused(secondProcess(), c);
    });
  }

  it("keeps it when the lock came first and the reconnect's calls after, in either order", async () => {
    for (const [, newFirst] of ORDERS) {
      const c = await connected();
      await lock(c);
      await pingsRefused(main, c);
      // frpc was cut off; its old session's CloseProxy is late, and its relogin's NewProxy is refused.
      if (newFirst) expect((await main.call("NewProxy", proxy(c))).reject).toBe(true);
      await main.call("CloseProxy", closing(c));
      if (!newFirst) expect((await main.call("NewProxy", proxy(c))).reject).toBe(true);
      await main.flush();
      // The refused NewProxy registered nothing: the old proxy's close released the hold.
      expect(await row(c.tcp.tun_id)).toEqual({ status: 3, run_id: null });
      expect((await main.call("Ping", { user: userInfo(c) })).reject).toBe(false);
    }
  });
});

describe("a reconnect under the same run id, over two processes", () => {
  for (const [order, newFirst] of ORDERS) {
    for (const writesFirst of ["NewProxy's", "CloseProxy's"]) {
      it(`keeps the new session as the holder: ${order} (the ${writesFirst} process writes first)`, async () => {
        const other = secondProcess();
        const c = await connected();
        // Both processes know the customer and the hold.
        await pingsAllowed(other, c);
        if (newFirst) {
          expect((await main.call("NewProxy", proxy(c))).reject).toBe(false);
          await other.call("CloseProxy", closing(c));
        } else {
          await other.call("CloseProxy", closing(c));
          expect((await main.call("NewProxy", proxy(c))).reject).toBe(false);
        }
        const [opener, closer] = [main, other];
        for (const p of writesFirst === "NewProxy's" ? [opener, closer] : [closer, opener]) await p.flush();
        expect(await row(c.tcp.tun_id)).toEqual({ status: 1, run_id: RUN_ID });
        expect(await staleCloses(c.tcp.tun_id)).toBe(0);
        await lock(c);
        await pingsRefused(main, c);
        await pingsRefused(other, c);
      });
    }
  }

  it("keeps it when the lock lands between the two processes' writes", async () => {
    for (const [, newFirst] of ORDERS) {
      const other = secondProcess();
      const c = await connected();
      await pingsAllowed(other, c);
      if (newFirst) {
        await main.call("NewProxy", proxy(c));
        await other.call("CloseProxy", closing(c));
      } else {
        await other.call("CloseProxy", closing(c));
        await main.call("NewProxy", proxy(c));
      }
      // The close is written first (the hold is released), then the lock (both processes reload
      // the customer), then the new session's open.
      await other.flush();
      await lock(c);
      await main.flush();
      expect(await row(c.tcp.tun_id)).toEqual({ status: 3, run_id: RUN_ID });
      await pingsRefused(main, c);
      await pingsRefused(other, c);
    }
  });
});

async function pingsAllowed(p: Process, c: Customer) {
  expect(await p.call("Ping", { user: userInfo(c) })).toEqual({ reject: false, unchange: true });
}

describe("a CloseProxy without a reconnect", () => {
  for (const where of ["the same process", "another process"]) {
    it(`releases the hold at once, answered by ${where}: the deleted tunnel's port is free again`, async () => {
      const other = where === "the same process" ? main : secondProcess();
      const c = await connected();
      await pingsAllowed(other, c);
      expect((await t.api("DELETE", "/user/tun", { token: c.token, body: { tun_id: c.tcp.tun_id } })).status).toBe(200);
      expect((await main.call("Ping", { user: userInfo(c) })).reject_reason).toContain("已删除");
      const d = await registerWithPlan(t);
      const body = {
        tun_name: "p",
        protocol: "tcp",
        local_port: 22,
        node_id: s.node.node_id,
        remote_port: c.tcp.remote_port,
      };
      expect((await t.api("POST", "/user/tun", { token: d.token, body })).status).not.toBe(200);
      // frpc's session is cut: frps closes the proxy.
      await other.call("CloseProxy", closing(c));
      await other.flush();
      expect(await row(c.tcp.tun_id)).toEqual({ status: -1, run_id: null });
      await pingsAllowed(main, c);
      await pingsAllowed(other, c);
      expect((await t.api("POST", "/user/tun", { token: d.token, body })).status).toBe(200);
    });
  }

  it("after a NewProxy frps refused (counted as a close still to come), is left for the poller, which releases", async () => {
    const c = await connected();
    // frpc re-sends NewProxy for the same proxy in the same session (a retry frps refused): the
    // plugin cannot tell it from a reconnect, so one more close is expected before a release.
    expect((await main.call("NewProxy", proxy(c))).reject).toBe(false);
    await main.flush();
    expect((await t.api("DELETE", "/user/tun", { token: c.token, body: { tun_id: c.tcp.tun_id } })).status).toBe(200);
    await main.call("CloseProxy", closing(c));
    await main.flush();
    // In doubt, the hold stays: the session is still refused.
    expect(await row(c.tcp.tun_id)).toEqual({ status: -1, run_id: RUN_ID });
    expect((await main.call("Ping", { user: userInfo(c) })).reject_reason).toContain("已删除");
    // The dashboard does not show the proxy: the poller releases the hold.
    await pollNode(t.ctx, s.node.node_id, { now: noon() });
    expect(await row(c.tcp.tun_id)).toEqual({ status: -1, run_id: null });
    await pingsAllowed(main, c);
  });
});

describe("the hold as written (tunnels.run_id, stale_closes)", () => {
  const hold = (id: number) =>
    t.db
      .selectFrom("tunnels")
      .select(["status", "run_id", "stale_closes"])
      .where("tun_id", "=", id)
      .executeTakeFirstOrThrow();
  const open = (id: number, runId: string, n = 1) =>
    transact(t.ctx, (trx) => tunnelsOnline(trx, [id], runId, nowIso(), n));
  const close = (id: number, runId: string, n = 1) => transact(t.ctx, (trx) => tunnelsOffline(trx, [id], runId, [], n));

  it("counts the holder's opens against its closes, in either order and in batches", async () => {
    const { tcp } = await customer();
    const id = tcp.tun_id;
    await open(id, "r1");
    expect(await hold(id)).toEqual({ status: 1, run_id: "r1", stale_closes: 0 });
    // Two reconnects whose old closes are late (written as one batch of two opens), then the closes.
    await open(id, "r1", 2);
    expect(await hold(id)).toEqual({ status: 1, run_id: "r1", stale_closes: 2 });
    await close(id, "r1", 2);
    expect(await hold(id)).toEqual({ status: 1, run_id: "r1", stale_closes: 0 });
    // Another session's close leaves the hold; the holder's own releases it.
    await close(id, "r2");
    expect(await hold(id)).toEqual({ status: 1, run_id: "r1", stale_closes: 0 });
    await close(id, "r1");
    expect(await hold(id)).toEqual({ status: 2, run_id: null, stale_closes: 0 });
    // Three closes where one was owed: the second releases, the third finds nothing.
    await open(id, "r1", 2);
    await close(id, "r1", 3);
    expect(await hold(id)).toEqual({ status: 2, run_id: null, stale_closes: 0 });
  });

  it("counts no earlier close for the NewProxy of a proxy the poller saw first", async () => {
    const { tcp } = await customer();
    const id = tcp.tun_id;
    // The dashboard shows the proxy online before its NewProxy is written.
    await transact(t.ctx, (trx) => tunnelSeenOnline(trx, id, "r1", nowIso()));
    expect(await hold(id)).toEqual({ status: 1, run_id: "r1", stale_closes: -1 });
    await open(id, "r1");
    expect(await hold(id)).toEqual({ status: 1, run_id: "r1", stale_closes: 0 });
    await close(id, "r1");
    expect(await hold(id)).toEqual({ status: 2, run_id: null, stale_closes: 0 });
  });
});
