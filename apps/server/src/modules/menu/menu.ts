import { type MenuItem, Role } from "@burrow/contract";

/** A menu entry with the roles that see it. Only pages that exist are listed (later features add theirs). */
export interface MenuDef extends Omit<MenuItem, "children"> {
  roles: number[];
  children?: MenuDef[];
}

const ALL = [Role.Customer, Role.Support, Role.Manager];
const STAFF = [Role.Support, Role.Manager];
const MANAGER = [Role.Manager];

/** A heading that only opens its children (no page of its own). */
const group = (name: string, id: string, icon: MenuDef["icon"], roles: number[], children: MenuDef[]): MenuDef => ({
  name,
  id,
  path: "",
  icon,
  roles,
  children,
});

/** The customer console's menu (paths are absolute). */
export const customerMenu: MenuDef[] = [
  { name: "仪表盘", id: "dashboard", path: "/dashboard", icon: "home", roles: ALL },
  { name: "隧道列表", id: "tunnels", path: "/tun/list", icon: "list", roles: ALL },
  { name: "节点列表", id: "nodes", path: "/tun/node", icon: "node", roles: ALL },
  { name: "流量统计", id: "traffic", path: "/traffic", icon: "traffic", roles: ALL },
  { name: "客户端下载", id: "download", path: "/download", icon: "download", roles: ALL },
  { name: "使用文档", id: "doc", path: "/doc", icon: "article", roles: ALL },
  { name: "frpc 助手", id: "aipage", path: "/aipage", icon: "service", roles: ALL },
  { name: "购买套餐", id: "purchase", path: "/purchase/plan", icon: "shippingBag", roles: ALL },
  { name: "余额充值", id: "recharge", path: "/epay/recharge", icon: "wallet", roles: ALL },
  { name: "我的套餐", id: "myplan", path: "/epay/plan", icon: "bill", roles: ALL },
  { name: "我的订单", id: "myorder", path: "/epay/order", icon: "bill", roles: ALL },
  { name: "我的域名", id: "domain", path: "/domain", icon: "domain", roles: ALL },
  { name: "SSL 证书", id: "ssl", path: "/ssl", icon: "ssl", roles: ALL },
  { name: "工单", id: "ticket", path: "/help/ticket", icon: "ticket", roles: ALL },
  group("推广返利", "aff", "userShared", ALL, [
    { name: "推广统计", id: "aff-count", path: "/aff/count", icon: "userShared", roles: ALL },
    { name: "返利提现", id: "aff-rebate", path: "/aff/rebate", icon: "coins", roles: ALL },
  ]),
  { name: "实名认证", id: "verify", path: "/account/verify", icon: "verify", roles: ALL },
  { name: "发票", id: "invoice", path: "/invoice", icon: "invoice", roles: ALL },
  { name: "消息通知", id: "notices", path: "/notices", icon: "service", roles: ALL },
  { name: "Webhook", id: "webhooks", path: "/account/webhooks", icon: "bardLine", roles: ALL },
  { name: "个人中心", id: "account", path: "/account/info", icon: "account", roles: ALL },
  { name: "数据导出与注销", id: "leaving", path: "/account/leaving", icon: "account", roles: ALL },
  { name: "管理后台", id: "adm", path: "/adm", icon: "setting", roles: STAFF },
];

/** The admin console's menu (paths relative to /admin, as SPEC §2 lists them). */
export const adminMenu: MenuDef[] = [
  { name: "概览", id: "view", path: "/view", icon: "homeGear", roles: STAFF },
  { name: "用户管理", id: "usermgr", path: "/usermgr/list", icon: "user", roles: STAFF },
  { name: "工单管理", id: "ticket", path: "/mgr/ticket", icon: "service", roles: STAFF },
  { name: "实名审核", id: "verify", path: "/verify/list", icon: "verify", roles: STAFF },
  { name: "套餐管理", id: "plan", path: "/plan", icon: "store", roles: MANAGER },
  group("订单", "orders", "bill", STAFF, [
    { name: "订单管理", id: "order", path: "/order", icon: "bill", roles: STAFF },
    { name: "套餐开通记录", id: "order-reg", path: "/order/reg", icon: "list", roles: STAFF },
  ]),
  group("营销", "market", "market", MANAGER, [
    { name: "优惠码", id: "market-code", path: "/market/code", icon: "market", roles: MANAGER },
    { name: "礼品卡", id: "market-gift", path: "/market/gift", icon: "coins", roles: MANAGER },
    { name: "充值优惠", id: "market-recharge", path: "/market/recharge", icon: "wallet3", roles: MANAGER },
  ]),
  group("节点", "nodes", "server", MANAGER, [
    { name: "节点管理", id: "node", path: "/node", icon: "server", roles: MANAGER },
    { name: "地区管理", id: "area", path: "/area", icon: "group", roles: MANAGER },
    { name: "网络类型", id: "type", path: "/type", icon: "setting", roles: MANAGER },
    { name: "商店等级", id: "level", path: "/level", icon: "store", roles: MANAGER },
    { name: "维护计划", id: "maintenance", path: "/maintenance", icon: "setting", roles: MANAGER },
  ]),
  group("隧道", "tunnels", "list", MANAGER, [
    { name: "隧道管理", id: "tun", path: "/tun", icon: "list", roles: MANAGER },
    { name: "违规隧道", id: "tun-illegal", path: "/tun/illegal", icon: "shield", roles: MANAGER },
    { name: "域名管理", id: "tun-domain", path: "/tun/domain", icon: "domain", roles: MANAGER },
    { name: "连接管理", id: "tun-conns", path: "/tun/conns", icon: "userShared", roles: MANAGER },
  ]),
  { name: "提现管理", id: "withdrawal", path: "/withdrawal", icon: "wallet3", roles: MANAGER },
  { name: "发票管理", id: "invoice-list", path: "/invoice/list", icon: "invoice", roles: MANAGER },
  { name: "流量统计", id: "flow", path: "/flow", icon: "traffic", roles: MANAGER },
  { name: "客户端管理", id: "download", path: "/download", icon: "download", roles: MANAGER },
  { name: "首页内容", id: "setter", path: "/setter/main", icon: "homeGear", roles: MANAGER },
  { name: "第三方登录", id: "oidc", path: "/oidc", icon: "userSetting", roles: MANAGER },
  { name: "站点设置", id: "setting", path: "/setting", icon: "setting", roles: MANAGER },
  { name: "审计日志", id: "audit", path: "/audit", icon: "article", roles: MANAGER },
  { name: "事件投递", id: "outbox", path: "/outbox", icon: "shield", roles: MANAGER },
  { name: "账号注销", id: "leaving", path: "/leaving", icon: "user", roles: STAFF },
  { name: "返回用户端", id: "dash", path: "/dash", icon: "gobackLine", roles: STAFF },
];

/** The items a role may see, without the role lists. */
export function menuFor(defs: MenuDef[], role: number): MenuItem[] {
  return defs
    .filter((d) => d.roles.includes(role))
    .map(({ roles: _roles, children, ...item }) => {
      const kids = children ? menuFor(children, role) : undefined;
      return kids?.length ? { ...item, children: kids } : item;
    });
}
