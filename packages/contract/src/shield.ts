import { z } from "zod";
import { int, time } from "./answers";
import { PageQuery } from "./common";

/*
 * 访客防护 (visitor shield): per-tunnel allow and deny lists and an automatic ban rule, enforced by
 * the frp plugin at NewUserConn (docs/shield.md). The address parser lives here so the console's
 * validation, the web form and the plugin (packages/frp-decision/src/shield.ts) read addresses alike.
 */

/** An address or network: IPv4 as one word, IPv6 as four (big-endian 32-bit words). */
export interface IpNet {
  v6: boolean;
  words: number[];
  /** prefix length: 32 or 128 for a single address */
  bits: number;
}

function parseV4(s: string): number | null {
  const parts = s.split(".");
  if (parts.length !== 4) return null;
  let n = 0;
  for (const p of parts) {
    if (!/^(0|[1-9]\d{0,2})$/.test(p)) return null;
    const v = Number(p);
    if (v > 255) return null;
    n = n * 256 + v;
  }
  return n >>> 0;
}

function parseV6(s: string): number[] | null {
  if (!/^[0-9a-fA-F:.]+$/.test(s)) return null;
  const halves = s.split("::");
  if (halves.length > 2) return null;
  const groups = (h: string): number[] | null => {
    if (h === "") return [];
    const out: number[] = [];
    const parts = h.split(":");
    for (let i = 0; i < parts.length; i++) {
      const p = parts[i];
      // an embedded IPv4 address ends the address (::ffff:1.2.3.4)
      if (i === parts.length - 1 && p.includes(".")) {
        const v4 = parseV4(p);
        if (v4 === null) return null;
        out.push(v4 >>> 16, v4 & 0xffff);
      } else if (/^[0-9a-fA-F]{1,4}$/.test(p)) out.push(Number.parseInt(p, 16));
      else return null;
    }
    return out;
  };
  const head = groups(halves[0]);
  const tail = halves.length === 2 ? groups(halves[1]) : [];
  if (!head || !tail) return null;
  let all: number[];
  if (halves.length === 2) {
    if (head.length + tail.length > 7) return null;
    all = [...head, ...new Array(8 - head.length - tail.length).fill(0), ...tail];
  } else all = head;
  if (all.length !== 8) return null;
  return [0, 2, 4, 6].map((i) => ((all[i] << 16) | all[i + 1]) >>> 0);
}

/**
 * An IPv4 or IPv6 address, or a network in CIDR form ("10.0.0.0/8", "2001:db8::/32"), or null.
 * An IPv4-mapped IPv6 address (::ffff:1.2.3.4, as a dual-stack frps may report) is read as IPv4.
 */
export function parseIpNet(text: string): IpNet | null {
  const s = text.trim();
  const slash = s.indexOf("/");
  const addr = slash < 0 ? s : s.slice(0, slash);
  const bitsText = slash < 0 ? null : s.slice(slash + 1);
  if (bitsText !== null && !/^\d{1,3}$/.test(bitsText)) return null;
  const v4 = parseV4(addr);
  if (v4 !== null) {
    const bits = bitsText === null ? 32 : Number(bitsText);
    return bits <= 32 ? { v6: false, words: [v4], bits } : null;
  }
  const v6 = parseV6(addr);
  if (!v6) return null;
  const bits = bitsText === null ? 128 : Number(bitsText);
  if (bits > 128) return null;
  // ::ffff:a.b.c.d/n (n ≥ 96) is the IPv4 network a.b.c.d/(n-96)
  if (v6[0] === 0 && v6[1] === 0 && v6[2] === 0xffff && bits >= 96)
    return { v6: false, words: [v6[3]], bits: bits - 96 };
  return { v6: true, words: v6, bits };
}

/** Whether `ip` (a single address) lies in `net`. */
export function ipInNet(ip: IpNet, net: IpNet): boolean {
  if (ip.v6 !== net.v6) return false;
  let bits = net.bits;
  for (let i = 0; i < net.words.length && bits > 0; i++, bits -= 32) {
    const mask = bits >= 32 ? 0xffffffff : (0xffffffff << (32 - bits)) >>> 0;
    if ((ip.words[i] & mask) >>> 0 !== (net.words[i] & mask) >>> 0) return false;
  }
  return true;
}

/** Most entries in one list (the plugin checks a visitor against every one). */
export const SHIELD_LIST_MAX = 200;
/** Ports where the ban rule is on until the customer says otherwise: SSH, RDP, VNC. */
export const SHIELD_DEFAULT_PORTS: readonly number[] = [22, 3389, 5900];
/** The ban rule's defaults: more than 20 new connections from one address in 60 s → banned for an hour. */
export const SHIELD_DEFAULT_RULE = Object.freeze({ conns: 20, window_s: 60, ban_s: 3600 });
/**
 * Most bans in force per tunnel: past it the rule bans no more until some expire or are lifted
 * (the lists still apply). The plugin (frp-decision SHIELD_BAN_CAP) and the console's writer hold it.
 */
export const SHIELD_BAN_CAP = 1000;
/**
 * Tunnel types whose visitors frps announces (NewUserConn): the shield applies only to these. stcp
 * and sudp share frps's visitor listener (startVisitorListener), which asks per visitor frpc; so
 * does an xtcp tunnel's stcp fallback (the connections relayed when hole punching fails; the
 * punched ones never pass frps).
 */
export const SHIELD_PROTOCOLS: readonly string[] = ["tcp", "https", "stcp", "sudp", "xtcp"];

/** One address or CIDR network, as the lists take it. */
export const IpNetText = z
  .string()
  .trim()
  .max(50)
  .refine((s) => parseIpNet(s) !== null, "应为 IPv4/IPv6 地址或 CIDR 网段，如 203.0.113.7、10.0.0.0/8、2001:db8::/32");
const ipList = z.array(IpNetText).max(SHIELD_LIST_MAX, `最多 ${SHIELD_LIST_MAX} 条`);

/** PUT /user/tun/{tunid}/shield */
export const ShieldBody = z.object({
  allow: ipList.describe("only these addresses may connect (empty: anyone not denied)"),
  deny: ipList.describe("these addresses are refused"),
  rule_enabled: z.boolean().describe("the automatic ban rule"),
  conns: z.number().int().min(1).max(100_000).describe("more new connections than this from one address…"),
  window_s: z.number().int().min(1).max(86_400).describe("…within this many seconds…"),
  ban_s: z
    .number()
    .int()
    .min(60)
    .max(30 * 86_400)
    .describe("…bans it for this many seconds"),
});
export type ShieldBody = z.infer<typeof ShieldBody>;

export interface ShieldView extends ShieldBody {
  /** whether frps asks about this tunnel's visitors (tcp, https, stcp); http and udp: it does not */
  applies: boolean;
  /** no setting saved yet: the defaults for the tunnel's port are shown */
  defaults: boolean;
  /** bans in force now */
  bans: number;
  /** SHIELD_BAN_CAP: at it the rule bans no more */
  ban_cap: number;
}

export interface ShieldBanRow {
  id: number;
  /** an IPv4 address, or the IPv6 /64 banned ("2001:db8:2:7::/64") */
  ip: string;
  reason: string;
  created_at: string;
  until: string;
}

/** GET /user/tun/{tunid}/shield/bans: a page of the bans in force */
export const ShieldBansQuery = PageQuery;

/** DELETE /user/tun/{tunid}/shield/bans/{banid} */
export const ShieldBanParams = z.object({
  tunid: z.coerce.number().int().min(1),
  banid: z.coerce.number().int().min(1),
});

export const ShieldViewAnswer = z.strictObject({
  allow: z.array(z.string()),
  deny: z.array(z.string()),
  rule_enabled: z.boolean(),
  conns: int(),
  window_s: int(),
  ban_s: int(),
  applies: z
    .boolean()
    .describe("frps asks about this tunnel's visitors (tcp, https, stcp, sudp; xtcp: the relayed fallback)"),
  defaults: z.boolean().describe("nothing saved yet: the defaults for the tunnel's port"),
  bans: int().describe("bans in force now"),
  ban_cap: int().describe("most bans in force per tunnel: at it the ban rule bans no more"),
});

export const ShieldBanRowAnswer = z.strictObject({
  id: int(),
  ip: z.string(),
  reason: z.string(),
  created_at: time(),
  until: time(),
});
