import { z } from "zod";
import { PlanPeriods, ProxyProtocols, TunnelProtocols } from "./enums";
import { TunnelScheduleAnswer } from "./tunnel-schedule";
import { TunnelAddon } from "./tunnels";

/*
 * Answers (the envelope's `data`) as zod schemas, for the endpoints API tokens reach (issue 34 §2):
 * an entry's `answer` must produce its response type (endpoint() checks it), the OpenAPI document
 * describes `data` from it, and the API tests parse real answers with it — strict objects, so a
 * field the server adds without the schema fails there. The remaining answers follow.
 */

export const int = () => z.number().int();
export const time = () => z.string().describe("ISO-8601 UTC");

/** A page of `item` (Paged<T>). */
export const pagedAnswer = <T extends z.ZodType>(item: T) =>
  z.strictObject({ list: z.array(item), total: int(), page: int(), size: int() });

export const TunnelViewAnswer = z.strictObject({
  tun_id: int(),
  tun_name: z.string(),
  uid: int(),
  node_id: int(),
  node_name: z.string(),
  protocol: z.enum(TunnelProtocols),
  local_ip: z.string(),
  local_port: int(),
  remote_port: int().nullable(),
  remote_port_end: int().nullable().describe("last port of a port range, null: one port"),
  custom_domains: z.array(z.string()),
  subdomain: z.string().nullable(),
  use_encryption: z.boolean(),
  use_compression: z.boolean(),
  bandwidth: int().describe("Mbps, 0 = the plan's"),
  enabled: z.boolean().describe("false: turned off by its owner"),
  status: int().describe("−1 deleted, 1 connected, 2 offline, 3 locked"),
  banned_reason: z.string().nullable(),
  addon: TunnelAddon,
  proxy_protocol: z.enum(ProxyProtocols).describe("PROXY protocol header for the local service, off: none"),
  proxy_name: z.string(),
  addresses: z.array(z.string()).describe("what to share: host:port, or URLs for http(s)"),
  traffic_in: int(),
  traffic_out: int(),
  today_in: int(),
  today_out: int(),
  last_online_at: time().nullable(),
  created_at: time(),
  updated_at: time(),
  schedule: TunnelScheduleAnswer.nullable().describe("定时开放, null: always open"),
  schedule_note: z.string().nullable().describe("将于 18:00 关闭 / 将于 周一 09:00 开放"),
});

export const TunnelDetailAnswer = TunnelViewAnswer.extend({
  node: z.strictObject({ host: z.string(), bind_port: int(), status: int() }),
  cur_conns: int(),
  secret_key: z.string().nullable().describe("stcp/xtcp/sudp: frp's secretKey (owner only), null otherwise"),
});

export const UserInfoAnswer = z.strictObject({
  uid: int(),
  role: int(),
  status: int(),
  nickname: z.string(),
  balance: int().describe("fen"),
  invite_code: z.string(),
  frp_token: z.string(),
  verify_status: int().describe("0 never, 1 verified, 2 processing, 3 rejected"),
  real_name: z.string().nullable(),
  created_at: time(),
  personal_info: z.strictObject({ avatar: z.string(), phone_number: z.string() }),
  phone_bound: z.boolean(),
  has_password: z.boolean(),
});

export const BalanceLedgerRowAnswer = z.strictObject({
  id: int(),
  change: int().describe("fen"),
  balance_before: int(),
  balance_after: int(),
  reason: z.string(),
  order_id: z.string().nullable(),
  created_at: time(),
});

const TrafficDayAnswer = z.strictObject({
  date: z.string().describe("YYYY-MM-DD, Asia/Shanghai"),
  traffic_in: int().describe("bytes, visitor → local service"),
  traffic_out: int().describe("bytes, local service → visitor"),
});

export const TunnelTrafficChartAnswer = z.strictObject({ tun_id: int(), days: z.array(TrafficDayAnswer) });

export const UserTrafficAnswer = z.strictObject({
  start_date: z.string(),
  end_date: z.string(),
  quota: z.strictObject({
    plan_name: z.string().nullable(),
    total: int().describe("bytes of plan plus live traffic packs"),
    used: int(),
    left: int(),
    usable: z.boolean(),
    end_at: time().nullable(),
  }),
  days: z.array(TrafficDayAnswer),
  tunnels: z.array(
    z.strictObject({ tun_id: int(), tun_name: z.string(), status: int(), traffic_in: int(), traffic_out: int() }),
  ),
});

export const UserTrafficRowAnswer = TrafficDayAnswer.extend({ tun_id: int(), tun_name: z.string().optional() });

export const OrderViewAnswer = z.strictObject({
  id: int(),
  trade_id: z.string(),
  type: int(),
  pay_method: int(),
  pay_type: z.string().nullable(),
  status: int().describe("-2 refunded, -1 closed, 1 paid, 2 awaiting payment"),
  name: z.string(),
  action: z.enum(["recharge", "new", "extend", "upgrade", "pack", "renew"]),
  plan_id: int().nullable(),
  plan_name: z.string().nullable(),
  period: z.enum(PlanPeriods).nullable(),
  months: int().nullable(),
  fee: int(),
  price: int(),
  code: z.string().nullable(),
  code_discount: int(),
  upgrade_credit: int(),
  bonus: int(),
  amount: int().describe("fen"),
  subscription_id: int().nullable(),
  note: z.string(),
  channel_trade_id: z.string().nullable(),
  pay_url: z.string().nullable(),
  created_at: time(),
  expires_at: time(),
  paid_at: time().nullable(),
  closed_at: time().nullable(),
  refunded_at: time().nullable(),
  automatic: z.boolean().describe("bought by an automatic rule (auto-renewal, traffic top-up)"),
});

export const ConnRowAnswer = z.strictObject({
  id: int(),
  tun_id: int(),
  tun_name: z.string(),
  uid: int(),
  node_id: int(),
  node_name: z.string(),
  proxy_type: z.string(),
  remote_addr: z.string().describe("visitor IP"),
  conn_count: int().describe("connections from that IP in the window"),
  created_at: time(),
  last_at: time(),
});

export const TunnelConfigAnswer = z.strictObject({
  scope: z.enum(["tunnel", "node"]),
  node_id: int(),
  node_name: z.string(),
  filename: z.string(),
  toml: z.string().describe("frpc.toml (carries the frp secret)"),
  commands: z.strictObject({ windows: z.string(), macos: z.string(), linux: z.string() }),
  tun_ids: z.array(int()),
});
