import type { SessionInfo } from "@burrow/contract";
import type { Kysely } from "kysely";
import type { AppContext } from "../../context";
import type { DB } from "../../db/schema";
import type { Principal } from "../../shared/auth";
import { notFound } from "../../shared/errors";
import { recordEvent } from "../../shared/outbox";
import { nowIso } from "../../shared/time";
import { direct, type Tx } from "../../shared/tx";
import { revokeSessions, SESSION_KIND } from "./sessions";

/*
 * The account's signed-in devices (issue 34 §1): the session list with revoke, and the notice on a
 * sign-in from a device not seen before ("auth.new_device", docs/security.md "Sessions and devices").
 */

const BROWSERS: [RegExp, string][] = [
  [/Edg(e|A|iOS)?\//, "Edge"],
  [/OPR\/|Opera/, "Opera"],
  [/Firefox\/|FxiOS/, "Firefox"],
  [/MicroMessenger/, "微信"],
  [/Chrome\/|CriOS|Chromium/, "Chrome"],
  [/Safari\//, "Safari"],
  [/curl\//, "curl"],
];
const SYSTEMS: [RegExp, string][] = [
  [/Windows/, "Windows"],
  [/iPhone|iPad|iPod/, "iOS"],
  [/Android/, "Android"],
  [/Mac OS X|Macintosh/, "macOS"],
  [/CrOS/, "ChromeOS"],
  [/Linux/, "Linux"],
];
const first = (table: [RegExp, string][], ua: string) => table.find(([re]) => re.test(ua))?.[1];

/** A person's name for a user agent: "Chrome · Windows"; "未知设备" when nothing is recognised. */
export function deviceName(userAgent: string): string {
  const parts = [first(BROWSERS, userAgent), first(SYSTEMS, userAgent)].filter(Boolean);
  return parts.length ? parts.join(" · ") : "未知设备";
}

/** The network part of an address: the IPv4 /24, the IPv6 /48. */
export function networkOf(ip: string): string {
  const v4 = /^(?:::ffff:)?(\d+\.\d+\.\d+)\.\d+$/i.exec(ip);
  if (v4) return `${v4[1]}.0/24`;
  return `${ip.split(":").slice(0, 3).join(":")}::/48`;
}

/** "The same device" for the new-device notice: the user-agent family on the same network. */
export const deviceKey = (meta: { ip: string; userAgent: string }): string =>
  `${deviceName(meta.userAgent)}|${networkOf(meta.ip)}`;

/**
 * Remembers the device of a sign-in and, when the account has signed in before but never from it,
 * records "auth.new_device" in the same transaction (the assistant tells the customer). The
 * account's first device — its registration, or its first sign-in since devices are remembered —
 * is only remembered.
 */
export async function noteSignInDevice(trx: Tx, uid: number, meta: { ip: string; userAgent: string }): Promise<void> {
  const key = deviceKey(meta);
  const now = nowIso();
  const added = await trx
    .insertInto("known_devices")
    .values({ uid, device_key: key, created_at: now })
    .onConflict((oc) => oc.columns(["uid", "device_key"]).doNothing())
    .returning("id")
    .executeTakeFirst();
  if (!added) return;
  const before = await trx
    .selectFrom("known_devices")
    .select("id")
    .where("uid", "=", uid)
    .where("id", "!=", added.id)
    .limit(1)
    .executeTakeFirst();
  if (!before) return;
  await recordEvent(
    trx,
    "auth.new_device",
    { uid, device: deviceName(meta.userAgent), ip: meta.ip, at: now },
    { key: `auth.new_device:${added.id}` },
  );
}

/** The account's console sessions in force, most recently used first, the caller's own marked. */
export async function listSessions(db: Kysely<DB>, caller: Principal): Promise<SessionInfo[]> {
  const rows = await db
    .selectFrom("sessions")
    .select(["id", "ip", "user_agent", "created_at", "last_seen_at"])
    .where("uid", "=", caller.uid)
    .where("revoked_at", "is", null)
    .where("scope", "is", null)
    .where("expires_at", ">", nowIso())
    .execute();
  return rows
    .map((r) => ({
      id: r.id,
      device: deviceName(r.user_agent),
      ip: r.ip,
      created_at: r.created_at,
      last_seen_at: r.last_seen_at ?? r.created_at,
      current: caller.kind === SESSION_KIND && caller.credentialId === r.id,
    }))
    .sort((a, b) => Number(b.current) - Number(a.current) || b.last_seen_at.localeCompare(a.last_seen_at));
}

/** Signs one of the caller's own sessions out; another account's session (or a gone one) is "not found". */
export async function revokeOwnSession(ctx: AppContext, uid: number, sid: string): Promise<void> {
  if (!(await revokeSessions(direct(ctx), { uid, sid }))) throw notFound("该登录会话");
}

/** Signs out every session of the caller but the one the request came with. */
export async function revokeOtherSessions(ctx: AppContext, caller: Principal): Promise<void> {
  const keep = caller.kind === SESSION_KIND ? caller.credentialId : undefined;
  await revokeSessions(direct(ctx), { uid: caller.uid, except: keep });
}
