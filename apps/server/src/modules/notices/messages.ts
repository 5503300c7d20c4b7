import { fenToYuan, type NoticeEventType } from "@burrow/contract";
import type { DomainEventOf } from "../../shared/outbox";
import { shanghaiDate, shanghaiWallClock } from "../../shared/time";
import { GB } from "../subscriptions/default-plan";

/** What one notice says, on every channel: a title, a body of a few sentences, a console path. */
export interface NoticeMessage {
  title: string;
  body: string;
  link: string | null;
  /** what debouncing groups by (tunnel status), null for the rest */
  subject: string | null;
}

const gb = (bytes: number) => `${(bytes / GB).toFixed(2)} GB`;
const day = (iso: string) => shanghaiDate(new Date(iso));
const minute = (iso: string) => shanghaiWallClock(iso).toISOString().slice(0, 16).replace("T", " ");
const yuan = (fen: number) => `${fenToYuan(fen)} 元`;

function quota(p: DomainEventOf<"quota.80">["payload"], share: string): string {
  const until = p.period_end ? `（本期至 ${day(p.period_end)}）` : "";
  return `您的流量已使用${share}：已用 ${gb(p.used)}，共 ${gb(p.quota)}${until}。`;
}

/** The message of each notice event (the catalogue's types, contract notices.ts). */
export function messageOf(event: DomainEventOf<NoticeEventType>): NoticeMessage {
  const m = (title: string, body: string, link: string | null, subject: string | null = null) => ({
    title,
    body,
    link,
    subject,
  });
  switch (event.type) {
    case "tunnel.offline": {
      const p = event.payload;
      return m(
        `隧道「${p.name}」已离线`,
        `隧道「${p.name}」（#${p.tun_id}）于 ${minute(event.created_at)}（北京时间）离线，超过 2 分钟仍未恢复。请检查 frpc 是否在运行、网络是否正常。`,
        "/tun/list",
        `tunnel:${p.tun_id}`,
      );
    }
    case "tunnel.online": {
      const p = event.payload;
      return m(
        `隧道「${p.name}」已恢复上线`,
        `隧道「${p.name}」（#${p.tun_id}）于 ${minute(event.created_at)}（北京时间）重新上线。`,
        "/tun/list",
        `tunnel:${p.tun_id}`,
      );
    }
    case "quota.80":
      return m("流量提醒：本期流量已用 80%", quota(event.payload, " 80%"), "/traffic");
    case "quota.95":
      return m(
        "流量提醒：本期流量已用 95%",
        `${quota(event.payload, " 95%")}流量用尽后隧道将无法连接，请及时购买流量包或升级套餐。`,
        "/purchase/plan",
      );
    case "quota.100":
      return m(
        "流量已用尽：隧道已停止",
        `${quota(event.payload, "完")}隧道将无法连接，直到续费或购买流量包。`,
        "/purchase/plan",
      );
    case "plan.expiring": {
      const p = event.payload;
      return m(
        `套餐「${p.plan_name}」将在 ${p.days_left} 天后到期`,
        `您的套餐「${p.plan_name}」将于 ${day(p.end_at)} 到期。到期后将回到免费套餐，超出免费套餐的隧道会停止。如需继续使用，请及时续费。`,
        "/epay/plan",
      );
    }
    case "plan.expired": {
      const p = event.payload;
      return m(
        `套餐「${p.plan_name}」已到期`,
        `您的套餐「${p.plan_name}」已于 ${day(p.end_at)} 到期。如需继续使用，请重新购买。`,
        "/purchase/plan",
      );
    }
    case "order.paid": {
      const p = event.payload;
      return m(`订单已支付：${p.name}`, `订单 ${p.trade_id}（${p.name}）已支付 ${yuan(p.amount)}。`, "/epay/order");
    }
    case "order.refunded": {
      const p = event.payload;
      return m(
        `订单已退款：${p.name}`,
        `订单 ${p.trade_id}（${p.name}）已退款 ${yuan(p.amount)}，退回到您的账户余额。`,
        "/epay/order",
      );
    }
    case "ticket.replied": {
      const p = event.payload;
      return m(
        `工单有新回复：${p.title}`,
        `客服回复了您的工单「${p.title}」（#${p.ticket_id}）。`,
        `/help/ticket/${p.ticket_id}`,
      );
    }
    case "auth.new_device": {
      const p = event.payload;
      return m(
        "登录提醒：新设备登录",
        `您的账号于 ${minute(p.at)}（北京时间）在新设备上登录：${p.device}，IP ${p.ip}。如果不是您本人，请立即修改密码并退出其他设备。`,
        "/account/info",
      );
    }
    case "subscription.renewal_due": {
      const p = event.payload;
      return m(
        `套餐「${p.plan_name}」即将自动续费`,
        `您的套餐「${p.plan_name}」将于 ${day(p.period_end)} 到期，届时将从余额自动续费 ${yuan(p.amount)}（当前余额 ${yuan(p.balance)}）。`,
        "/epay/plan",
      );
    }
    case "subscription.renewal_failed": {
      const p = event.payload;
      return m(
        `套餐「${p.plan_name}」自动续费失败`,
        `${p.message}（需 ${yuan(p.amount)}，余额 ${yuan(p.balance)}）。`,
        "/epay/recharge",
      );
    }
    case "webhook.paused": {
      const p = event.payload;
      return m(
        "Webhook 已暂停",
        `${p.url} 连续 ${p.failures} 次投递失败，已自动暂停；修复接收端后在 Webhook 页面恢复，积压的事件会随即补发。`,
        "/account/webhooks",
      );
    }
    case "traffic.topup_failed": {
      const p = event.payload;
      return m("自动购买流量包失败", p.message, "/purchase/plan");
    }
    case "node.maintenance": {
      const p = event.payload;
      const what = { announced: "维护通知", updated: "维护时间变更", cancelled: "维护已取消" }[p.action];
      return m(
        `节点${what}：${p.title}`,
        p.action === "cancelled"
          ? `原定于 ${minute(p.starts_at)} 至 ${minute(p.ends_at)}（北京时间）的维护「${p.title}」已取消。`
          : `您的隧道所在节点将于 ${minute(p.starts_at)} 至 ${minute(p.ends_at)}（北京时间）维护：${p.title}。期间隧道可能中断。`,
        "/tun/list",
      );
    }
    case "cert.expiring": {
      const p = event.payload;
      return m(
        `证书将在 ${p.days_left} 天后到期：${p.domain}`,
        `${p.domain} 的 SSL 证书将于 ${day(p.expires_at)} 到期，尚未续期。请检查域名解析是否仍指向我们，或手动上传新证书。`,
        "/ssl",
      );
    }
    case "cert.renewed": {
      const p = event.payload;
      return m(
        `证书已续期：${p.domain}`,
        `${p.domain} 的 SSL 证书已续期，新证书有效期至 ${day(p.expires_at)}。`,
        "/ssl",
      );
    }
    case "domain.verification_lost": {
      const p = event.payload;
      return m(
        `域名验证失效：${p.domain}`,
        `域名 ${p.domain} 的验证已失效（${p.reason}），使用它的隧道将无法绑定该域名。请重新完成验证。`,
        "/domain",
      );
    }
    case "node.down": {
      const p = event.payload;
      return m(
        `节点离线：${p.name}`,
        `节点「${p.name}」（#${p.node_id}）于 ${minute(p.at)}（北京时间）无法连接，超过 2 分钟仍未恢复：${p.reason}`,
        "/admin/node",
        `node:${p.node_id}`,
      );
    }
    case "node.up": {
      const p = event.payload;
      return m(
        `节点恢复：${p.name}`,
        `节点「${p.name}」（#${p.node_id}）于 ${minute(p.at)}（北京时间）恢复。`,
        "/admin/node",
        `node:${p.node_id}`,
      );
    }
    case "payment.failing": {
      const p = event.payload;
      return m(
        "支付持续失败",
        `自 ${minute(p.since)}（北京时间）起，支付回调已被拒绝 ${p.failures} 次，最近一次：${p.last_reason}。请检查支付网关的配置。`,
        "/admin/order",
      );
    }
    case "queue.waiting": {
      const p = event.payload;
      return m(
        `待办等待过久：${p.label}`,
        `「${p.label}」有 ${p.count} 项待处理，最早的一项自 ${minute(p.oldest_at)}（北京时间）起等待。`,
        `/admin${p.path}`,
      );
    }
  }
}
