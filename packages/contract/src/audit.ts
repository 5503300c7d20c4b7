import { z } from "zod";
import { optionalInt, PageQuery } from "./common";
import {
  InvoiceStatusLabel,
  NodeStatusLabel,
  ProcessStatusLabel,
  RoleLabel,
  TicketStatusAdminLabel,
  TunnelStatusLabel,
  UserStatusLabel,
} from "./enums";
import { fenToYuan } from "./money";

/**
 * The operators' audit log (GET /super/audit). Every action code the server writes has its
 * Chinese name here: apps/server/src/modules/audit/audit-actions.test.ts reads the codes from the
 * server's audit() calls and fails on one without a name.
 */
export const AuditActionLabel = {
  "aff.setting": "修改推广设置",
  "aff.withdraw.approve": "通过提现申请",
  "aff.withdraw.reject": "驳回提现申请",
  "area.create": "新增地区",
  "area.update": "修改地区",
  "area.delete": "删除地区",
  "discountCode.create": "新增优惠码",
  "discountCode.delete": "删除优惠码",
  "discountRecharge.create": "新增充值优惠",
  "discountRecharge.delete": "删除充值优惠",
  "domain.unbind": "解绑域名",
  "download.create": "新增客户端下载",
  "download.update": "修改客户端下载",
  "download.delete": "删除客户端下载",
  "download.mirror": "镜像客户端构建（命令行）",
  "giftCard.create": "生成礼品卡",
  "giftCard.update": "修改礼品卡",
  "giftCard.delete": "删除礼品卡",
  "giftCard.export": "导出礼品卡",
  "home.create": "新增首页公告",
  "home.update": "修改首页公告",
  "home.delete": "删除首页公告",
  "illegal.ban": "封禁违规隧道",
  "illegal.clear": "忽略违规标记",
  "illegal.rule.create": "新增违规规则",
  "illegal.rule.delete": "删除违规规则",
  "invoice.issue": "开具发票",
  "invoice.return": "退回发票申请",
  "invoice.cancel": "取消发票申请",
  "invoice.file": "上传发票文件",
  "level.create": "新增节点等级",
  "level.update": "修改节点等级",
  "level.delete": "删除节点等级",
  "netType.create": "新增网络类型",
  "netType.update": "修改网络类型",
  "netType.delete": "删除网络类型",
  "node.create": "新增节点",
  "node.update": "修改节点",
  "node.delete": "删除节点",
  "maintenance.create": "发布维护计划",
  "maintenance.update": "修改维护计划",
  "maintenance.cancel": "取消维护计划",
  "oidc.create": "新增第三方登录",
  "oidc.update": "修改第三方登录",
  "oidc.delete": "删除第三方登录",
  "order.refund": "订单退款",
  "order.refund.override": "订单退款（人工定额）",
  "outbox.retry": "重试事件投递",
  "passkey.register": "添加通行密钥",
  "passkey.delete": "删除通行密钥",
  "plan.create": "新增套餐",
  "plan.update": "修改套餐",
  "plan.offSale": "下架套餐",
  "plan.delete": "删除套餐",
  "setup.dismiss": "隐藏设置清单",
  "setup.show": "显示设置清单",
  "ticket.reply": "回复工单",
  "ticket.close": "结束工单",
  "ticket.unlock": "解锁申诉隧道",
  "tunnel.update": "修改隧道",
  "tunnel.free_session": "强制下线会话",
  "user.update": "修改用户",
  "user.resetPassword": "重置密码（命令行）",
  "verify.setting": "修改实名设置",
  "verify.review": "查看实名资料",
  "verify.photo": "查看实名照片",
  "verify.approve": "通过实名认证",
  "verify.reject": "驳回实名认证",
  "verify.reset": "重置实名认证",
} as const satisfies Record<string, string>;

export type AuditAction = keyof typeof AuditActionLabel;
export const AUDIT_ACTIONS = Object.keys(AuditActionLabel) as AuditAction[];

/** The Chinese name of an action code; an unknown code (a row older than its name) shows as itself. */
export const auditActionLabel = (action: string): string =>
  (AuditActionLabel as Record<string, string>)[action] ?? action;

export const AuditQuery = PageQuery.extend({
  operator_uid: optionalInt(1),
  action: z.preprocess(
    (v) => (v === "" ? undefined : v),
    z.enum(AUDIT_ACTIONS as [AuditAction, ...AuditAction[]], { error: "没有这种操作" }).optional(),
  ),
});
export type AuditQuery = z.infer<typeof AuditQuery>;

/** One changed (or recorded) field: `from` is absent where the row did not record the old value. */
export interface AuditChange {
  field: string;
  label: string;
  from?: string;
  to: string;
}

export interface AuditRow {
  id: number;
  operator_uid: number;
  /** nickname, "" for the command line (uid 0) or a user gone */
  operator_name: string;
  operator_phone: string;
  action: string;
  action_label: string;
  target: string;
  /** the target in Chinese ("用户 #5") */
  target_label: string;
  changes: AuditChange[];
  /** the row as recorded (JSON) */
  detail: string;
  ip: string;
  created_at: string;
}

/** An operator who wrote audit rows, for the filter. */
export interface AuditOperator {
  uid: number;
  name: string;
  phone: string;
}

/** What kind of thing a target ("user:5") is, in Chinese. */
const TARGET_KINDS: Record<string, string> = {
  area: "地区",
  discountCode: "优惠码",
  discountRecharge: "充值优惠",
  domain: "域名",
  download: "客户端下载",
  giftCard: "礼品卡",
  giftCardBatch: "礼品卡批次",
  home: "首页公告",
  invoice: "发票",
  level: "节点等级",
  netType: "网络类型",
  node: "节点",
  oidc: "第三方登录",
  order: "订单",
  outboxDelivery: "事件投递",
  plan: "套餐",
  rule: "违规规则",
  setting: "设置",
  ticket: "工单",
  tunnel: "隧道",
  user: "用户",
  withdrawal: "提现",
};

/** "user:5" → "用户 #5", "setting:affiliate" → "设置 affiliate"; an unknown kind shows as recorded. */
export function auditTargetLabel(target: string): string {
  const i = target.indexOf(":");
  const kind = TARGET_KINDS[i < 0 ? target : target.slice(0, i)];
  if (!kind) return target;
  if (i < 0) return kind;
  const id = target.slice(i + 1);
  return /^\d+$/.test(id) ? `${kind} #${id}` : `${kind} ${id}`;
}

/** Field names shown to people. */
export const AuditFieldLabel: Record<string, string> = {
  account: "收款账号",
  account_name: "收款人",
  action: "处理",
  amount: "金额",
  annual_fee: "年付价格",
  annual_fee_discount: "年付折扣",
  api_addr: "面板地址",
  api_user: "面板用户",
  area_id: "地区",
  area_name: "地区名称",
  ban_reason: "封禁原因",
  balance_change: "余额调整",
  balance_reason: "调整原因",
  bandwidth: "带宽",
  banned_reason: "锁定原因",
  batch_no: "批次号",
  bind_port: "frps 端口",
  bonus: "赠送金额",
  card_id: "卡号",
  card_value: "面值",
  client_id: "Client ID",
  client_secret: "Client Secret",
  code: "优惠码",
  content: "内容",
  count: "数量",
  custom_domains: "自定义域名",
  deleted: "删除数量",
  description: "描述",
  discount: "折扣",
  domain: "域名",
  enabled: "启用",
  end_at: "结束时间",
  expire_date: "过期时间",
  fee: "价格",
  from: "原状态",
  hold_days: "结算期（天）",
  host: "地址",
  invoice_no: "发票号",
  is_default: "新用户默认套餐",
  issuer: "Issuer",
  kind: "类型",
  level_id: "节点等级",
  local_ip: "本地地址",
  local_port: "本地端口",
  method: "方式",
  min_amount: "起充金额",
  min_withdraw: "最低提现",
  model_reason: "按模型说明",
  model_refundable: "按模型可退",
  monthly_fee: "月付价格",
  monthly_fee_discount: "月付折扣",
  name: "名称",
  net_type_id: "网络类型",
  nickname: "昵称",
  node_id: "节点",
  note: "备注",
  off_sale: "下架",
  on_sale: "在售",
  os: "系统",
  override_reason: "人工定额原因",
  password: "密码",
  payout_ref: "付款流水号",
  photos_deleted: "删除照片数",
  plan_id: "套餐",
  port_max: "端口上限",
  port_min: "端口下限",
  price: "价格",
  protocol: "协议",
  quarterly_fee: "季付价格",
  quarterly_fee_discount: "季付折扣",
  rate_bp: "返利比例（基点）",
  reason: "原因",
  refunded: "退款金额",
  remote_port: "远程端口",
  replaced: "替换原文件",
  required_for_tunnels: "创建隧道需要实名认证",
  reset_secret: "重置插件密钥",
  role: "角色",
  rows: "行数",
  semiannual_fee: "半年付价格",
  semiannual_fee_discount: "半年付折扣",
  simple_desc: "简介",
  size: "大小",
  sort: "排序",
  start_at: "开始时间",
  status: "状态",
  subdomain: "子域名",
  subdomain_host: "子域名后缀",
  subscription_id: "订阅",
  tag: "标签",
  title: "标题",
  to: "新状态",
  traffic: "流量",
  tun_name: "隧道名称",
  tunnel_limit: "隧道数",
  tunnel_peer_port_limit: "单隧道端口数",
  type: "类型",
  uid: "用户 UID",
  url: "地址",
  use_limit: "可用次数",
  version: "版本",
  vhost_http_port: "HTTP 端口",
  vhost_https_port: "HTTPS 端口",
};

/** Fields holding money (integer fen), shown in yuan. */
const MONEY_FIELDS = new Set([
  "amount",
  "annual_fee",
  "balance_change",
  "bonus",
  "card_value",
  "fee",
  "min_amount",
  "min_withdraw",
  "model_refundable",
  "monthly_fee",
  "price",
  "quarterly_fee",
  "refunded",
  "semiannual_fee",
]);

/** Status codes by the kind of target they belong to ("user:5" → user). */
const STATUS_LABELS: Record<string, Record<number, string>> = {
  invoice: InvoiceStatusLabel,
  node: NodeStatusLabel,
  ticket: TicketStatusAdminLabel,
  tunnel: TunnelStatusLabel,
  user: UserStatusLabel,
};

const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/;
const SHANGHAI_OFFSET_MS = 8 * 3600 * 1000;

/** An ISO time as Beijing wall-clock time ("2026-11-28 07:00:00"). */
export function beijingTime(iso: string): string {
  const ms = Date.parse(iso);
  if (Number.isNaN(ms)) return iso;
  return new Date(ms + SHANGHAI_OFFSET_MS).toISOString().slice(0, 19).replace("T", " ");
}

function formatValue(action: string, target: string, field: string, v: unknown): string {
  if (v === null || v === undefined || v === "") return "（空）";
  if (typeof v === "boolean") return v ? "是" : "否";
  if (typeof v === "number") {
    if (MONEY_FIELDS.has(field)) return `¥${fenToYuan(v)}`;
    if (field === "role") return RoleLabel[v] ?? String(v);
    if (field === "status" || field === "from" || field === "to") {
      // verify.* rows name the user, but their status is the verification's
      const kind = action.startsWith("verify.") ? "verify" : target.split(":")[0];
      const labels = kind === "verify" ? ProcessStatusLabel : STATUS_LABELS[kind];
      return labels?.[v] ?? String(v);
    }
    return String(v);
  }
  if (typeof v === "string") return ISO_TIME.test(v) ? beijingTime(v) : v;
  if (Array.isArray(v)) return v.length ? v.map((x) => formatValue(action, target, field, x)).join("、") : "（空）";
  return JSON.stringify(v);
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * An audit row's detail as "field: old → new" lines: a `{before, after}` detail gives the fields
 * that changed, a `{from, to}` one the status change; any other detail lists the values recorded
 * (their old values were not kept).
 */
export function auditChanges(action: string, target: string, detail: unknown): AuditChange[] {
  if (!isRecord(detail)) return [];
  const line = (field: string, to: unknown, from?: { v: unknown }): AuditChange => ({
    field,
    label: AuditFieldLabel[field] ?? field,
    ...(from && { from: formatValue(action, target, field, from.v) }),
    to: formatValue(action, target, field, to),
  });
  const { before, after, ...rest } = detail;
  if (isRecord(before) && isRecord(after)) {
    const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])];
    return [
      ...keys
        .filter((k) => JSON.stringify(before[k]) !== JSON.stringify(after[k]))
        .map((k) => line(k, after[k], { v: before[k] })),
      ...auditChanges(action, target, rest),
    ];
  }
  const { from, to, ...others } = detail;
  const status =
    from !== undefined && !isRecord(from)
      ? [to !== undefined ? line("status", to, { v: from }) : { ...line("status", from), label: "原状态" }]
      : [];
  const remaining = status.length ? others : detail;
  return [...status, ...Object.entries(remaining).map(([k, v]) => line(k, v))];
}
