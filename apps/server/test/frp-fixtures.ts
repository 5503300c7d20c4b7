import {
  type AdminNodeDetail,
  type CreateTunnelBody,
  MONTHLY_ONLY_FEES,
  SubscriptionStatus,
  type TunnelView,
} from "@burrow/contract";
import { GB } from "../src/modules/subscriptions/default-plan";
import { nowIso } from "../src/shared/time";
import type { TestApp } from "./harness";

let nodeSeq = 0;
let planSeq = 0;

/** A test node's settings besides its name, area and level (api_addr: a dashboard nobody serves). */
export const TEST_NODE_FIELDS = {
  host: "node.example.net",
  bind_port: 7000,
  vhost_http_port: 80,
  vhost_https_port: 443,
  subdomain_host: "frp.example.net",
  port_min: 20000,
  port_max: 20100,
  bandwidth: 0,
  api_addr: "http://127.0.0.1:7500",
  api_user: "admin",
  api_password: "dashboard-pass",
  description: "",
};

/** Creates a node through the admin API; each gets its own name and port range unless given. */
export async function createTestNode(
  t: TestApp,
  overrides: Record<string, unknown> = {},
  token?: string,
): Promise<AdminNodeDetail> {
  const seq = ++nodeSeq;
  const area = await t.db.selectFrom("areas").select("area_id").orderBy("area_id").executeTakeFirstOrThrow();
  const level = await t.db.selectFrom("plan_levels").select("id").orderBy("level").executeTakeFirstOrThrow();
  const r = await t.api<AdminNodeDetail>("POST", "/super/node", {
    token: token ?? (await t.adminToken()),
    body: {
      name: `测试节点-${process.pid}-${seq}`,
      area_id: area.area_id,
      net_type_id: 1,
      level_id: level.id,
      ...TEST_NODE_FIELDS,
      ...overrides,
    },
  });
  if (r.body.code !== "SUCCESS") throw new Error(`createTestNode failed: ${JSON.stringify(r.body)}`);
  return r.body.data;
}

export interface PlanOverrides {
  level?: number;
  bandwidth?: number;
  tunnel_limit?: number;
  tunnel_peer_port_limit?: number;
  /** GB */
  traffic?: number;
  /** bytes already used */
  used?: number;
  end_at?: string | null;
}

/**
 * Puts the customer on a fresh plan with the given limits (replacing the plan subscription they
 * have) and returns the plan id. `level` is a plan_levels.level rank that must exist.
 */
export async function setPlan(t: TestApp, uid: number, o: PlanOverrides = {}): Promise<number> {
  const level = await t.db
    .selectFrom("plan_levels")
    .select("id")
    .where("level", "=", o.level ?? 1)
    .executeTakeFirstOrThrow();
  const plan = await t.db
    .insertInto("plans")
    .values({
      name: `测试套餐-${++planSeq}`,
      tag: "",
      simple_desc: "",
      traffic: o.traffic ?? 10,
      type: 2,
      level_id: level.id,
      sort: 0,
      bandwidth: o.bandwidth ?? 10,
      tunnel_limit: o.tunnel_limit ?? 10,
      tunnel_peer_port_limit: o.tunnel_peer_port_limit ?? 5,
      monthly_fee: 100,
      monthly_fee_discount: 1,
      ...MONTHLY_ONLY_FEES,
      on_sale: 1,
      is_default: 0,
      created_at: nowIso(),
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  await t.db
    .updateTable("subscriptions")
    .set({ status: SubscriptionStatus.Expired })
    .where("uid", "=", uid)
    .where("kind", "=", 2)
    .execute();
  const quota = (o.traffic ?? 10) * GB;
  await t.db
    .insertInto("subscriptions")
    .values({
      uid,
      plan_id: plan.id,
      kind: 2,
      period: "monthly",
      start_at: nowIso(),
      end_at: o.end_at === undefined ? new Date(Date.now() + 30 * 86400_000).toISOString() : o.end_at,
      traffic_quota: quota,
      traffic_used: o.used ?? 0,
      status: (o.used ?? 0) >= quota ? SubscriptionStatus.OverQuota : SubscriptionStatus.InUse,
      trade_id: null,
      created_at: nowIso(),
    })
    .execute();
  t.ctx.events.emit("subscription.changed", { uid });
  return plan.id;
}

/** A new customer on a plan (setPlan's, with `o` changed): the start of most tunnel suites. */
export async function registerWithPlan(t: TestApp, o: PlanOverrides = {}) {
  const u = await t.register();
  await setPlan(t, u.uid, o);
  return u;
}

/** Creates a tunnel through the customer API; throws with the envelope when refused. */
export async function createTestTunnel(
  t: TestApp,
  token: string,
  body: Partial<CreateTunnelBody> & { node_id: number },
): Promise<TunnelView> {
  const r = await t.api<TunnelView>("POST", "/user/tun", {
    token,
    body: { tun_name: `tun${Math.random().toString(36).slice(2, 8)}`, protocol: "tcp", local_port: 22, ...body },
  });
  if (r.body.code !== "SUCCESS") throw new Error(`createTestTunnel failed: ${JSON.stringify(r.body)}`);
  return r.body.data;
}

/** A tunnel row as createTunnel writes it (offline tcp to local port 22), to insert directly. */
export const tunnelRow = (
  t: { uid: number; node_id: number; tun_name: string; remote_port: number; status?: number },
  now = nowIso(),
) => ({
  protocol: "tcp",
  local_ip: "127.0.0.1",
  local_port: 22,
  custom_domains: "[]",
  subdomain: null,
  use_encryption: 0,
  use_compression: 0,
  bandwidth: 0,
  enabled: 1,
  status: 2,
  banned_reason: null,
  addon: "{}",
  run_id: null,
  last_online_at: null,
  created_at: now,
  updated_at: now,
  ...t,
});
