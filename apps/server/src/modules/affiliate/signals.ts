/** Risk signals for an operator deciding a withdrawal: what links the customer to their invitees. */
import type { WithdrawalSignal } from "@burrow/contract";
import type { Kysely } from "kysely";
import type { DB } from "../../db/schema";
import { orderClientIps } from "../orders/orders.repository";
import { listLoginLogs, shownPhonesOf } from "../users/users.repository";
import { identitiesOf, type VerifiedIdentity } from "../verify/identity";

/** Phone numbers of one block: the same first 7 digits (carrier segment and area). */
const PHONE_PREFIX = 7;
/** Invitees and sign-ins looked at per customer for the signals (the most recent ones). */
const SIGNAL_INVITEES = 50;
const SIGNAL_LOGINS = 100;

/**
 * What links a customer to the invitees whose orders earned their rebates (self-referral), for
 * the operator deciding a withdrawal: see WithdrawalSignal in the contract.
 */
export async function signalsOf(
  db: Kysely<DB>,
  uid: number,
  me: VerifiedIdentity | undefined,
): Promise<WithdrawalSignal[]> {
  const rebated = await db
    .selectFrom("aff_rebates")
    .select(["invitee_uid", "trade_id", "invitee_id_hash"])
    .where("uid", "=", uid)
    .orderBy("id", "desc")
    .limit(1000)
    .execute();
  const inviteeUids = [...new Set(rebated.map((r) => r.invitee_uid))].slice(0, SIGNAL_INVITEES);
  if (!inviteeUids.length) return [];
  const devices = async (u: number) =>
    (await listLoginLogs(db, u, 1, SIGNAL_LOGINS)).list.map((l) => ({ ip: l.ip, ua: l.user_agent }));
  const [phones, ids, mine, myOrders, theirOrders] = await Promise.all([
    shownPhonesOf(db, [uid, ...inviteeUids]),
    identitiesOf(db, inviteeUids),
    devices(uid),
    orderClientIps(db, { uid }),
    orderClientIps(db, { tradeIds: rebated.map((r) => r.trade_id).slice(0, 500) }),
  ]);
  const myPhone = phones.get(uid) ?? "";
  const myDevices = new Set(mine.map((d) => `${d.ip}\n${d.ua}`));
  const myIps = new Set([...mine.map((d) => d.ip), ...myOrders.map((o) => o.client_ip)]);
  const out: WithdrawalSignal[] = [];
  for (const invitee of inviteeUids) {
    const phone = phones.get(invitee) ?? "";
    const who = `被邀请人 UID ${invitee}${phone ? `（${phone}）` : ""}`;
    if (myPhone.length === 11 && phone.length === 11 && myPhone.slice(0, PHONE_PREFIX) === phone.slice(0, PHONE_PREFIX))
      out.push({
        kind: "phone_prefix",
        detail: `${who}：手机号前 ${PHONE_PREFIX} 位同为 ${phone.slice(0, PHONE_PREFIX)}`,
      });
    const shared = (await devices(invitee)).find((d) => myDevices.has(`${d.ip}\n${d.ua}`));
    if (shared) out.push({ kind: "device", detail: `${who}：同一 IP（${shared.ip}）和浏览器登录过` });
    const paid = theirOrders.find((o) => o.uid === invitee && myIps.has(o.client_ip));
    if (paid)
      out.push({ kind: "payer", detail: `${who}：订单 ${paid.trade_id} 从你用过的地址 ${paid.client_ip} 下单支付` });
    const hashes = new Set(rebated.filter((r) => r.invitee_uid === invitee).map((r) => r.invitee_id_hash));
    hashes.add(ids.get(invitee)?.id_hash ?? null);
    if (me?.id_hash && hashes.has(me.id_hash))
      out.push({ kind: "id_hash", detail: `${who}：实名认证的身份证号码与该用户相同` });
  }
  return out;
}
