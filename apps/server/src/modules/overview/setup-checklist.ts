import type { SetupChecklist, SetupItem } from "@burrow/contract";
import { payGatewayKind } from "../../config";
import type { AppContext } from "../../context";
import type { Operator } from "../../shared/actor";
import { getSetting, setSetting } from "../../shared/settings";
import { nowIso } from "../../shared/time";
import { transact } from "../../shared/tx";
import { audit } from "../audit/audit";
import { userDownloads } from "../downloads/downloads.service";
import { nodeStatusSummary } from "../nodes/stats";
import { publicProviders } from "../oidc/providers";
import { listPlansOnSale } from "../plans/plans.repository";
import { providerKind } from "../verify/provider";

/** Set (to the time) while an operator has hidden the checklist before it was done. */
const DISMISSED = "setup_checklist_dismissed";
/** The section of docs/deploy.md that explains each environment line. */
const DOC = "docs/deploy.md#set-up-checklist";
/** The site settings page, which shows the gateways and verification channel in force. */
const SETTINGS_PAGE = "/setting";

const env = (...vars: string[]) => ({ env: vars, doc: DOC });

/**
 * The set-up checklist of the operator's overview: each line read from the configuration in force
 * or the database at the time of the call, never remembered, so a line turns done as soon as the
 * operator has fixed it (or the server restarted with the variable set).
 */
export async function setupChecklist(ctx: AppContext): Promise<SetupChecklist> {
  const c = ctx.config;
  const [nodes, plans, downloads, oidc, dismissedAt] = await Promise.all([
    nodeStatusSummary(ctx.db),
    listPlansOnSale(ctx.db),
    userDownloads(ctx),
    publicProviders(ctx),
    getSetting(ctx.db, DISMISSED),
  ]);
  const gateway = payGatewayKind(c);
  const verify = providerKind(c);
  const items: SetupItem[] = [
    {
      key: "public_url",
      label: "设置站点公网地址",
      done: !!c.PUBLIC_URL,
      detail: c.PUBLIC_URL
        ? `PUBLIC_URL：${c.PUBLIC_URL}`
        : "未设置 PUBLIC_URL：节点部署中的插件地址只能按浏览器地址推测，第三方登录、正式支付网关和实名认证回调都无法使用",
      fix: env("PUBLIC_URL"),
    },
    {
      key: "node_online",
      label: "至少一个节点在线",
      done: nodes.online > 0,
      detail:
        nodes.online > 0
          ? `${nodes.online} 个节点在线`
          : "还没有在线的节点：在节点管理中新增节点或修改随安装附带的「本地节点」（指向 127.0.0.1，仅供本机试用），按「部署」在服务器上安装 frps",
      fix: { page: "/node" },
    },
    {
      key: "plan_on_sale",
      label: "上架可购买的套餐",
      done: plans.length > 0,
      detail: plans.length > 0 ? `${plans.length} 个套餐在售` : "商店里没有在售的套餐，用户无法购买",
      fix: { page: "/plan" },
    },
    {
      key: "downloads",
      label: "登记 frpc 客户端下载",
      done: downloads.length > 0,
      detail: downloads.length > 0 ? `已登记 ${downloads.length} 个客户端` : "客户端下载页是空的，用户找不到 frpc",
      fix: { page: "/download" },
    },
    {
      key: "payment",
      label: "接入支付网关",
      done: gateway === "epay",
      detail:
        gateway === "epay"
          ? "已接入易支付网关"
          : "正在使用内置沙箱支付：任何订单都可免费支付，不能收款。设置 EPAY_URL、EPAY_PID、EPAY_KEY",
      fix: env("EPAY_URL", "EPAY_PID", "EPAY_KEY"),
      shown_at: SETTINGS_PAGE,
    },
    {
      key: "sms",
      label: "接入短信网关",
      done: c.SMS_DRIVER === "http",
      detail:
        c.SMS_DRIVER === "http"
          ? "验证码经短信网关发送"
          : "验证码只打印在服务器日志中（console 驱动），用户收不到短信，无法注册。设置 SMS_DRIVER=http 与 SMS_HTTP_URL",
      fix: env("SMS_DRIVER", "SMS_HTTP_URL", "SMS_HTTP_TOKEN"),
      shown_at: SETTINGS_PAGE,
    },
    {
      key: "verify",
      label: "接入实名认证服务",
      done: verify !== "sandbox",
      detail:
        verify === "redirect"
          ? "实名认证由认证服务商完成"
          : verify === "manual"
            ? "实名认证由管理员人工审核"
            : "正在使用沙箱实名认证：按姓名直接判定，不核验身份。设置 VERIFY_URL、VERIFY_MERCHANT_ID、VERIFY_KEY，或 VERIFY_PROVIDER=manual 人工审核",
      fix: env("VERIFY_PROVIDER", "VERIFY_URL", "VERIFY_MERCHANT_ID", "VERIFY_KEY"),
      shown_at: SETTINGS_PAGE,
    },
    {
      key: "oidc",
      label: "配置第三方登录（身份提供方）",
      done: oidc.length > 0,
      detail:
        oidc.length > 0
          ? `已启用 ${oidc.map((p) => p.name).join("、")}`
          : "还没有启用的 OpenID Connect 登录方式；不需要时可隐藏本清单",
      fix: { page: "/oidc" },
    },
  ];
  const done = items.every((i) => i.done);
  const dismissed = !!dismissedAt;
  return { items, done, dismissed, show: !done && !dismissed };
}

/** Hides the checklist before it is done (or shows it again), for every operator; audited. */
export async function setSetupDismissed(ctx: AppContext, op: Operator, dismissed: boolean): Promise<SetupChecklist> {
  await transact(ctx, async (trx) => {
    await setSetting(trx, DISMISSED, dismissed ? nowIso() : "");
    await audit(trx, {
      operatorUid: op.uid,
      action: dismissed ? "setup.dismiss" : "setup.show",
      target: "setup",
      detail: { dismissed },
      ip: op.ip,
    });
  });
  return setupChecklist(ctx);
}
