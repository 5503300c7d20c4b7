/** Enumerations and statuses of SPEC §3 and §4, with their Chinese labels for the UI. */

export const OrderType = { Recharge: 1, Plan: 2, TrafficPack: 3, Renewal: 4 } as const;
export const OrderTypeLabel: Record<number, string> = { 1: "余额充值", 2: "套餐订阅", 3: "流量包", 4: "续费" };

export const AnnouncementKind = { Carousel: 1, Notice: 2, Quote: 3 } as const;
export const AnnouncementKindLabel: Record<number, string> = { 1: "轮播图", 2: "公告", 3: "一言" };

export const Kind = { Balance: 1, Plan: 2 } as const;
export const KindLabel: Record<number, string> = { 1: "余额", 2: "套餐" };

export const PayMethod = { Balance: 1, Online: 2 } as const;
export const PayMethodLabel: Record<number, string> = { 1: "余额支付", 2: "在线支付" };

export const NetworkType = { Host: 1, IpVlan: 2, MacVlan: 3 } as const;
export const NetworkTypeLabel: Record<number, string> = { 1: "host", 2: "IP-vlan", 3: "mac-vlan" };

export const TunnelProtocols = ["tcp", "udp", "http", "https", "stcp", "xtcp", "sudp"] as const;
export type TunnelProtocol = (typeof TunnelProtocols)[number];
/**
 * Secret tunnels (docs/secret-tunnels.md): no public port or domain; a visitor frpc that knows the
 * tunnel's secret reaches it through the node (stcp, sudp) or peer to peer (xtcp).
 */
export const SecretProtocols = ["stcp", "xtcp", "sudp"] as const;
export type SecretProtocol = (typeof SecretProtocols)[number];
export const isSecretProtocol = (p: string): p is SecretProtocol => (SecretProtocols as readonly string[]).includes(p);
/** PROXY protocol header frpc puts before a visitor's bytes (frpc `transport.proxyProtocolVersion`); tcp, http, https. */
export const ProxyProtocols = ["off", "v1", "v2"] as const;
export type ProxyProtocol = (typeof ProxyProtocols)[number];

/** Roles: 1 customer, 2 support staff, 3 Manager (SPEC gives Manager = 3). */
export const Role = { Customer: 1, Support: 2, Manager: 3 } as const;
export type RoleValue = (typeof Role)[keyof typeof Role];
export const RoleLabel: Record<number, string> = { 1: "普通用户", 2: "客服", 3: "管理员" };

export const PlanPeriods = ["monthly", "quarterly", "semiannual", "annual"] as const;
export type PlanPeriod = (typeof PlanPeriods)[number];
export const PlanPeriodLabel: Record<PlanPeriod, string> = {
  monthly: "月付",
  quarterly: "季付",
  semiannual: "半年付",
  annual: "年付",
};
export const PlanPeriodMonths: Record<PlanPeriod, number> = { monthly: 1, quarterly: 3, semiannual: 6, annual: 12 };

export const PayStatus = { Refunded: -2, Closed: -1, Paid: 1, Awaiting: 2 } as const;
export const PayStatusLabel: Record<number, string> = { [-2]: "已退款", [-1]: "已关闭", 1: "已支付", 2: "待支付" };

export const InvoiceStatus = { Cancelled: -1, Issued: 1, Awaiting: 2, Returned: 3 } as const;
export const InvoiceStatusLabel: Record<number, string> = { [-1]: "已取消", 1: "已开具", 2: "待开具", 3: "已退回" };

export const SubscriptionStatus = { Refunded: -2, Expired: -1, InUse: 1, OverQuota: 2 } as const;
export const SubscriptionStatusLabel: Record<number, string> = {
  [-2]: "已退款",
  [-1]: "已过期",
  1: "使用中",
  2: "超额",
};

export const TunnelStatus = { Deleted: -1, Connected: 1, Offline: 2, Locked: 3 } as const;
export const TunnelStatusLabel: Record<number, string> = { [-1]: "已删除", 1: "已连接", 2: "离线", 3: "已锁定" };

export const NodeStatus = { OffShelf: -1, Online: 1, Offline: 2, Exception: 3 } as const;
export const NodeStatusLabel: Record<number, string> = { [-1]: "已下架", 1: "在线", 2: "离线", 3: "异常" };

export const TicketStatus = { Ended: 1, AwaitingReply: 2, AwaitingUser: 3 } as const;
export const TicketStatusAdminLabel: Record<number, string> = { 1: "已结束", 2: "待回复", 3: "待用户补充" };
export const TicketStatusUserLabel: Record<number, string> = { 1: "已结束", 2: "待管理员回复", 3: "待用户补充" };

/** Withdrawal and identity-verification status. 0 is ours: "never submitted". */
export const ProcessStatus = { None: 0, Done: 1, Processing: 2, Rejected: 3 } as const;
export const ProcessStatusLabel: Record<number, string> = { 0: "未提交", 1: "已完成", 2: "处理中", 3: "已驳回" };

/** Erased: the account was deleted at its owner's request (docs/leaving.md); it never signs in again. */
export const UserStatus = { Active: 1, Banned: -1, Erased: -2 } as const;
export const UserStatusLabel: Record<number, string> = { 1: "正常", [-1]: "已封禁", [-2]: "已注销" };
