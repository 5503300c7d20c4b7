import { afterAll, beforeAll } from "vitest";
import { shanghaiDate, shanghaiDayStart } from "../src/shared/time";
import { createTestTunnel, type PlanOverrides, setPlan } from "./frp-fixtures";
import { createTestApp, type TestApp } from "./harness";
import { frpcFor, type SimNode, startSimNode } from "./sim-env";

/** Shanghai's date when the suite loads. */
export const today = shanghaiDate();
/** Noon (Shanghai) of a day: far from the midnight guard. */
export const noon = (day: string, plusMs = 0) => new Date(shanghaiDayStart(day).getTime() + 12 * 3600_000 + plusMs);

/**
 * The set-up the poller's suites share: one app with an admin token, simulated nodes (stopped
 * after the file), a customer with an ssh tunnel on a node, and reads of what a poll wrote.
 * Call it at the top of a test file; `get()` gives the app once the file's beforeAll ran.
 */
export function pollerSuite() {
  const sims: SimNode[] = [];
  const s = { t: undefined as unknown as TestApp, admin: "" };
  beforeAll(async () => {
    s.t = await createTestApp();
    s.admin = await s.t.adminToken();
  });
  afterAll(async () => {
    for (const n of sims) await n.sim.stop();
    await s.t.close();
  });

  const simNode = async (opts: Parameters<typeof startSimNode>[2] = {}) => {
    const n = await startSimNode(s.t, s.admin, opts);
    sims.push(n);
    return n;
  };
  /** A new customer on a plan with one tcp tunnel "ssh" on the node. */
  const customerOn = async (nodeId: number, plan: PlanOverrides = {}) => {
    const u = await s.t.register();
    await setPlan(s.t, u.uid, plan);
    const tcp = await createTestTunnel(s.t, u.token, {
      node_id: nodeId,
      tun_name: "ssh",
      protocol: "tcp",
      local_port: 22,
    });
    return { ...u, tcp };
  };

  return {
    get: () => s,
    simNode,
    customerOn,
    /**
     * The poll suites' usual start: a simulated node (`node` options as simNode's), a new customer
     * on it (`plan`, as customerOn) and that customer's frpc, logged in with its proxy up.
     */
    async clientOn(opts: Parameters<typeof startSimNode>[2] & { plan?: PlanOverrides } = {}) {
      const { plan, ...simOpts } = opts;
      const { node, sim } = await simNode(simOpts);
      const u = await customerOn(node.node_id, plan);
      const c = await frpcFor(s.t, sim, u.token, node.node_id);
      await c.start();
      return { node, sim, u, c };
    },
    tunnel: (id: number) =>
      s.t.db
        .selectFrom("tunnels")
        .select(["status", "traffic_in", "traffic_out", "run_id"])
        .where("tun_id", "=", id)
        .executeTakeFirstOrThrow(),
    days: (id: number) =>
      s.t.db
        .selectFrom("tunnel_traffic")
        .select(["day", "traffic_in", "traffic_out"])
        .where("tun_id", "=", id)
        .orderBy("day")
        .execute(),
    /** Traffic counted against the customer's live subscriptions. */
    used: async (uid: number) =>
      Number(
        (
          await s.t.db
            .selectFrom("subscriptions")
            .select((eb) => eb.fn.sum<number>("traffic_used").as("n"))
            .where("uid", "=", uid)
            .where("status", "in", [1, 2])
            .executeTakeFirstOrThrow()
        ).n,
      ),
  };
}
