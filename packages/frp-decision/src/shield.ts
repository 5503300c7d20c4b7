/**
 * 访客防护 (docs/shield.md): a tunnel's allow and deny lists and its automatic ban rule, decided at
 * NewUserConn from memory. The lists and the console's bans travel in the tunnel entry (so the node
 * agent has them); the rule's counters and the bans a process decides itself are that process's own.
 */
import { type IpNet, ipInNet, parseIpNet, SHIELD_BAN_CAP } from "@burrow/contract";
import { visitorIp } from "./state";

export interface ShieldRule {
  /** more new connections than this from one address… */
  conns: number;
  /** …within this many seconds (a window opened by the address's first connection)… */
  window_s: number;
  /** …ban it for this many seconds */
  ban_s: number;
}

/** A ban the console knows of (written by a process that decided it): applies in every process. */
export interface ShieldBanWire {
  /** the visitor key banned: an IPv4 address or an IPv6 /64 ("2001:db8:2:7::/64"; older rows: one address) */
  ip: string;
  until_ms: number;
  reason: string;
}

/** A tunnel's shield as the decision state carries it (and the agent's stream sends it). */
export interface TunnelShield {
  allow: string[];
  deny: string[];
  rule: ShieldRule | null;
  /**
   * Bumped by every edit and unban: a process then forgets the bans and counts it holds for the
   * tunnel, so a lifted ban is lifted everywhere (the bans still in force come back in `bans`)
   */
  version: number;
  bans: ShieldBanWire[];
}

/** A ban this process just decided (the writer records it for the list and the other processes). */
export interface ShieldBanDecision {
  tun_id: number;
  uid: number;
  node_id: number;
  ip: string;
  reason: string;
  /** epoch ms */
  at: number;
  until: number;
}

/** A refusal, with the ban it decided when the rule tripped. */
export interface ShieldVerdict {
  reason: string;
  ban: ShieldBanDecision | null;
}

/** A list ready to match: IPv4 single addresses in a set, the rest compared one by one. */
interface CompiledList {
  size: number;
  v4: Set<number>;
  /** IPv4 networks as [network, mask] pairs, compared as numbers */
  nets4: number[];
  nets6: IpNet[];
}

interface Compiled {
  allow: CompiledList;
  deny: CompiledList;
  /** the console's bans by visitor key (the last one to expire wins) */
  bans: Map<string, ShieldBanWire>;
}

/** What one process remembers of one tunnel's visitors. */
interface TunnelMemory {
  version: number;
  bans: Map<string, { until: number; reason: string }>;
  counts: Map<string, { start: number; n: number }>;
  /** sweep the expired counters when this many are held (doubles while they are all live) */
  sweepAt: number;
  /** when the expired bans were last forgotten at the ban cap */
  bansSweptAt: number;
}

/** Counters kept per tunnel before the expired ones are swept. */
const SWEEP_AT = 10_000;
/**
 * Most addresses counted per tunnel at once: beyond (a flood from more addresses within one window)
 * a new address is not counted until the window's counters expire; the lists still apply to it.
 */
const MAX_COUNTED = 200_000;

/**
 * The key a visitor is counted and banned by: an IPv4 address as it is, an IPv6 address by its /64
 * (one subscriber's network: an attacker rotating addresses inside it is one visitor).
 */
export function visitorKey(ip: IpNet): string {
  if (!ip.v6) return ipv4Text(ip.words[0]);
  const [a, b] = ip.words;
  return `${(a >>> 16).toString(16)}:${(a & 0xffff).toString(16)}:${(b >>> 16).toString(16)}:${(b & 0xffff).toString(16)}::/64`;
}

const ipv4Text = (n: number) => `${n >>> 24}.${(n >>> 16) & 255}.${(n >>> 8) & 255}.${n & 255}`;

/** The IPv4-mapped block ::ffff:0:0 (any address in ::ffff:0:0/96 stands for an IPv4 visitor). */
const MAPPED: IpNet = { v6: true, words: [0, 0, 0xffff, 0], bits: 128 };

function compileList(list: readonly string[]): CompiledList {
  const out: CompiledList = { size: list.length, v4: new Set(), nets4: [], nets6: [] };
  for (const text of list) {
    const net = parseIpNet(text);
    if (!net) continue;
    if (net.v6) {
      out.nets6.push(net);
      // A network that holds all of ::ffff:0:0/96 (::/0, ::ffff:0:0/95, …) holds every IPv4 visitor
      // in mapped form: it matches them too, as it says (review 5 F5; docs/shield.md).
      if (net.bits <= 96 && ipInNet(MAPPED, net)) out.nets4.push(0, 0);
    } else if (net.bits === 32) out.v4.add(net.words[0]);
    else {
      const mask = net.bits === 0 ? 0 : (0xffffffff << (32 - net.bits)) >>> 0;
      out.nets4.push((net.words[0] & mask) >>> 0, mask);
    }
  }
  return out;
}

/** IPv4 dotted quad to a number without allocating, or -1 (the common visitor; IPv6 takes parseIpNet). */
function fastV4(s: string): number {
  let n = 0;
  let part = -1;
  let dots = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 46) {
      if (part < 0 || ++dots > 3) return -1;
      n = n * 256 + part;
      part = -1;
    } else if (c >= 48 && c <= 57) {
      part = part < 0 ? c - 48 : part * 10 + c - 48;
      if (part > 255) return -1;
    } else return -1;
  }
  return dots === 3 && part >= 0 ? n * 256 + part : -1;
}

function matches(list: CompiledList, v4: number, ip: IpNet | null): boolean {
  if (v4 >= 0) {
    if (list.v4.has(v4)) return true;
    const nets = list.nets4;
    for (let i = 0; i < nets.length; i += 2) if ((v4 & nets[i + 1]) >>> 0 === nets[i]) return true;
    return false;
  }
  if (ip) for (const net of list.nets6) if (ipInNet(ip, net)) return true;
  return false;
}

const shanghaiTime = (ms: number) => new Date(ms + 8 * 3_600_000).toISOString().slice(0, 16).replace("T", " ");

/**
 * The shield's decisions for one process: compiled lists (per shield object, so a reloaded entry
 * compiles again), and per tunnel the rule's counters and the bans decided here.
 */
export class VisitorShield {
  private readonly compiled = new WeakMap<TunnelShield, Compiled>();
  private readonly memory = new Map<number, TunnelMemory>();

  /**
   * Why a visitor at `addr` ("ip:port" as frps sends it) may not reach the tunnel, or null; counts
   * the connection against the ban rule when it is let through.
   */
  check(
    t: { tun_id: number; uid: number; node_id: number; tun_name: string; shield?: TunnelShield | null },
    addr: string,
    now: number,
  ): ShieldVerdict | null {
    const shield = t.shield;
    if (!shield) return null;
    let ipText = visitorIp(addr);
    // a zoned link-local address (fe80::1%eth0) is its address: the zone names only the interface
    const zone = ipText.indexOf("%");
    if (zone > 0) ipText = ipText.slice(0, zone);
    let v4 = fastV4(ipText);
    let ip = v4 >= 0 ? null : parseIpNet(ipText);
    // the key it is counted and banned by (visitorKey); the common IPv4 visitor's is its text
    let key = ipText;
    // an IPv4-mapped IPv6 address is its IPv4 address
    if (ip && !ip.v6) {
      v4 = ip.words[0];
      ip = null;
      key = ipv4Text(v4);
    } else if (ip) key = visitorKey(ip);
    let c = this.compiled.get(shield);
    if (!c) {
      const bans = new Map<string, ShieldBanWire>();
      for (const b of shield.bans) if ((bans.get(b.ip)?.until_ms ?? 0) < b.until_ms) bans.set(b.ip, b);
      c = { allow: compileList(shield.allow), deny: compileList(shield.deny), bans };
      this.compiled.set(shield, c);
    }
    // An address that is not an IP (frps had none to give) matches no list and is not counted;
    // with an allow list it is refused: only the addresses listed may come in.
    if (v4 < 0 && !ip)
      return c.allow.size > 0
        ? { reason: `访客地址 ${ipText} 无法识别，不在隧道 ${t.tun_name} 的允许列表中`, ban: null }
        : null;
    if (matches(c.deny, v4, ip)) return { reason: `访客 ${ipText} 在隧道 ${t.tun_name} 的拒绝列表中`, ban: null };
    const allowed = c.allow.size > 0 && matches(c.allow, v4, ip);
    if (c.allow.size > 0 && !allowed)
      return { reason: `访客 ${ipText} 不在隧道 ${t.tun_name} 的允许列表中`, ban: null };
    // a ban by key, or one of a single IPv6 address recorded before bans went by /64
    const held = c.bans.get(key) ?? (ip ? c.bans.get(ipText) : undefined);
    if (held && held.until_ms > now) return { reason: this.bannedReason(key, held.until_ms, held.reason), ban: null };
    const rule = shield.rule;
    const mem = this.memoryOf(t.tun_id, shield.version, rule !== null);
    if (!mem) return null;
    const own = mem.bans.get(key);
    if (own) {
      if (own.until > now) return { reason: this.bannedReason(key, own.until, own.reason), ban: null };
      mem.bans.delete(key);
    }
    // Addresses on the allow list are trusted: the rule never bans them.
    if (!rule || allowed) return null;
    let count = mem.counts.get(key);
    if (!count || now - count.start >= rule.window_s * 1000) {
      if (!count && mem.counts.size >= mem.sweepAt) {
        // at most once per doubling: a flood of new addresses does not sweep on each one
        this.sweep(mem, rule, now);
        mem.sweepAt = Math.max(SWEEP_AT, mem.counts.size * 2);
      }
      if (!count && mem.counts.size >= MAX_COUNTED) return null;
      count = { start: now, n: 0 };
      mem.counts.set(key, count);
    }
    if (++count.n <= rule.conns) return null;
    // Past SHIELD_BAN_CAP (the console's bans and this process's) the rule bans no more, so a botnet
    // cannot grow the ban table, the entry streamed to agents and the reload behind each ban without
    // bound (review 5 F2); the lists and the bans in force still hold.
    if (shield.bans.length + mem.bans.size >= SHIELD_BAN_CAP) {
      // forget this process's expired bans, at most once a second (not on each visitor past the cap)
      if (now - mem.bansSweptAt >= 1000) {
        mem.bansSweptAt = now;
        for (const [k, b] of mem.bans) if (b.until <= now) mem.bans.delete(k);
      }
      if (shield.bans.length + mem.bans.size >= SHIELD_BAN_CAP) return null;
    }
    mem.counts.delete(key);
    const reason = `${rule.window_s} 秒内新建连接超过 ${rule.conns} 次`;
    const until = now + rule.ban_s * 1000;
    mem.bans.set(key, { until, reason });
    return {
      reason: this.bannedReason(key, until, reason),
      ban: { tun_id: t.tun_id, uid: t.uid, node_id: t.node_id, ip: key, reason, at: now, until },
    };
  }

  /** Bans decided by this process and still in force (tests, diagnostics). */
  bansOf(tunId: number, now: number): string[] {
    const mem = this.memory.get(tunId);
    return mem ? [...mem.bans].filter(([, b]) => b.until > now).map(([ip]) => ip) : [];
  }

  private bannedReason(ip: string, until: number, why: string): string {
    return `访客 ${ip} 已被自动封禁至 ${shanghaiTime(until)}（${why}）`;
  }

  /** The tunnel's memory at this version (a new version forgets the old); none needed without a rule or bans. */
  private memoryOf(tunId: number, version: number, ruled: boolean): TunnelMemory | null {
    let mem = this.memory.get(tunId);
    if (mem && mem.version !== version) {
      mem = undefined;
      this.memory.delete(tunId);
    }
    if (!mem) {
      if (!ruled) return null;
      mem = { version, bans: new Map(), counts: new Map(), sweepAt: SWEEP_AT, bansSweptAt: 0 };
      this.memory.set(tunId, mem);
    }
    return mem;
  }

  private sweep(mem: TunnelMemory, rule: ShieldRule, now: number): void {
    for (const [ip, c] of mem.counts) if (now - c.start >= rule.window_s * 1000) mem.counts.delete(ip);
    for (const [ip, b] of mem.bans) if (b.until <= now) mem.bans.delete(ip);
  }
}
