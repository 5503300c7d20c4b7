// Rows the benchmarks seed directly (thousands at a time, faster than the API): one customer, their
// subscription to a plan and a tcp tunnel, with every other column at its everyday value.
import { tunnelRow } from "../apps/server/test/frp-fixtures";

/** An active customer number `i`; `tag` keeps phones, tokens and invite codes apart per bench. */
export const benchUser = (tag: { phonePrefix: string; name: string }, i: number, now: string) => ({
  phone: `${tag.phonePrefix}${String(i).padStart(8, "0")}`,
  password_hash: "x",
  role: 1,
  status: 1,
  ban_reason: null,
  nickname: `${tag.name}${i}`,
  frp_token: `${tag.name}-token-${i}`,
  invite_code: `${tag.name.toUpperCase()}${i}`,
  referrer_uid: null,
  real_name: null,
  id_number_masked: null,
  created_at: now,
  last_login_at: null,
});

/** A plan in force from now, without end, with `quota` bytes of traffic. */
export const benchSubscription = (uid: number, plan: { id: number; type: number }, quota: number, now: string) => ({
  uid,
  plan_id: plan.id,
  kind: plan.type,
  period: null,
  start_at: now,
  end_at: null,
  traffic_quota: quota,
  status: 1,
  trade_id: null,
  created_at: now,
});

/** An offline tcp tunnel to local port 22 (the server tests' row). */
export const benchTunnel = (t: { uid: number; node_id: number; tun_name: string; remote_port: number }, now: string) =>
  tunnelRow(t, now);
