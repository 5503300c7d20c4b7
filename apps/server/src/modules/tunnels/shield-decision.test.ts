import { ipInNet, parseIpNet, SHIELD_BAN_CAP } from "@burrow/contract";
import { type TunnelShield, VisitorShield } from "@burrow/frp-decision";
import { describe, expect, it } from "vitest";

/* 访客防护's decision (packages/frp-decision/src/shield.ts) with a controllable clock: no app, no database. */

const shieldOf = (s: Partial<TunnelShield>): TunnelShield => ({
  allow: [],
  deny: [],
  rule: null,
  version: 1,
  bans: [],
  ...s,
});
const tunnel = (shield: TunnelShield) => ({ tun_id: 7, uid: 3, node_id: 2, tun_name: "ssh", shield });
const T0 = Date.parse("2026-11-28T04:00:00Z");

describe("addresses and networks", () => {
  it("reads IPv4, IPv6, CIDRs and IPv4-mapped IPv6, and refuses what is not one", () => {
    for (const ok of [
      "1.2.3.4",
      "10.0.0.0/8",
      "0.0.0.0/0",
      "::1",
      "2001:db8::/32",
      "::ffff:1.2.3.4",
      "fe80::1:2:3:4/64",
    ])
      expect(parseIpNet(ok), ok).not.toBeNull();
    for (const bad of [
      "1.2.3",
      "1.2.3.256",
      "01.2.3.4",
      "1.2.3.4/33",
      "2001:db8::/129",
      "1::2::3",
      "1:2:3:4:5:6:7:8:9",
      "x",
      "",
      "1.2.3.4/",
      "gg::1",
    ])
      expect(parseIpNet(bad), bad).toBeNull();
    expect(parseIpNet("::ffff:10.1.2.3")).toEqual(parseIpNet("10.1.2.3"));
    const net = parseIpNet("2001:db8:ab00::/40");
    expect(ipInNet(parseIpNet("2001:db8:abff::1") as never, net as never)).toBe(true);
    expect(ipInNet(parseIpNet("2001:db8:ac00::1") as never, net as never)).toBe(false);
    // families never match each other
    expect(ipInNet(parseIpNet("::") as never, parseIpNet("0.0.0.0/0") as never)).toBe(false);
  });
});

describe("the lists", () => {
  it("denies v4 and v6 addresses and networks, mapped addresses included", () => {
    const s = new VisitorShield();
    const t = tunnel(shieldOf({ deny: ["203.0.113.0/25", "198.51.100.7", "2001:db8::/48"] }));
    expect(s.check(t, "203.0.113.127:5000", T0)?.reason).toBe("访客 203.0.113.127 在隧道 ssh 的拒绝列表中");
    expect(s.check(t, "203.0.113.128:5000", T0)).toBeNull();
    expect(s.check(t, "198.51.100.7:1", T0)).not.toBeNull();
    expect(s.check(t, "198.51.100.8:1", T0)).toBeNull();
    expect(s.check(t, "[2001:db8:0:ffff::9]:22", T0)).not.toBeNull();
    expect(s.check(t, "[2001:db8:1::9]:22", T0)).toBeNull();
    expect(s.check(t, "[::ffff:198.51.100.7]:22", T0)).not.toBeNull();
  });

  it("with an allow list refuses everyone else; deny wins over allow", () => {
    const s = new VisitorShield();
    const t = tunnel(shieldOf({ allow: ["10.0.0.0/8", "fd00::/8"], deny: ["10.9.9.9"] }));
    expect(s.check(t, "10.1.2.3:1", T0)).toBeNull();
    expect(s.check(t, "[fd00::5]:1", T0)).toBeNull();
    expect(s.check(t, "11.0.0.1:1", T0)?.reason).toContain("不在隧道 ssh 的允许列表中");
    expect(s.check(t, "10.9.9.9:1", T0)?.reason).toContain("拒绝列表");
  });

  it("matches a zoned IPv6 visitor by its address without the zone", () => {
    const s = new VisitorShield();
    const t = tunnel(shieldOf({ deny: ["fe80::/10"] }));
    expect(s.check(t, "[fe80::1%eth0]:22", T0)?.reason).toBe("访客 fe80::1 在隧道 ssh 的拒绝列表中");
    expect(s.check(t, "[fe80::1]:22", T0)).not.toBeNull();
    const allow = tunnel(shieldOf({ allow: ["fe80::/10"] }));
    expect(s.check(allow, "[fe80::1%25eth0]:22", T0)).toBeNull();
  });

  it("matches IPv4 visitors by IPv6 networks that hold them in mapped form (::/0, ::ffff:0:0/96 and shorter)", () => {
    const s = new VisitorShield();
    for (const net of ["::/0", "::ffff:0:0/96", "::ffff:0:0/95", "::/80"]) {
      const t = tunnel(shieldOf({ deny: [net] }));
      expect(s.check(t, "203.0.113.9:1", T0)?.reason, net).toContain("拒绝列表");
      expect(s.check(t, "[::ffff:203.0.113.9]:1", T0)?.reason, net).toContain("拒绝列表");
    }
    // ::/0 is every address, IPv6 too; a network beside the mapped block holds no IPv4 visitor
    expect(s.check(tunnel(shieldOf({ deny: ["::/0"] })), "[2001:db8::1]:1", T0)).not.toBeNull();
    for (const net of ["2001:db8::/32", "::ffff:0:0/97", "::1:0:0/96", "64:ff9b::/96"])
      expect(s.check(tunnel(shieldOf({ deny: [net] })), "203.0.113.9:1", T0), net).toBeNull();
    // on an allow list, ::/0 lets IPv4 visitors in as well
    expect(s.check(tunnel(shieldOf({ allow: ["::/0"] })), "203.0.113.9:1", T0)).toBeNull();
  });

  it("checks a 100-entry list by the numbers, not the text", () => {
    const s = new VisitorShield();
    const deny = Array.from({ length: 100 }, (_, i) => (i % 2 ? `192.0.${i}.0/24` : `198.18.0.${i}`));
    const t = tunnel(shieldOf({ deny }));
    expect(s.check(t, "192.0.99.200:1", T0)).not.toBeNull();
    expect(s.check(t, "198.18.0.98:1", T0)).not.toBeNull();
    expect(s.check(t, "198.18.0.99:1", T0)).toBeNull();
  });
});

describe("the ban rule", () => {
  const rule = { conns: 3, window_s: 60, ban_s: 3600 };

  it("bans the address past the count within the window, until the ban expires", () => {
    const s = new VisitorShield();
    const t = tunnel(shieldOf({ rule }));
    for (let i = 0; i < 3; i++) expect(s.check(t, `203.0.113.9:${i}`, T0 + i * 1000)).toBeNull();
    const v = s.check(t, "203.0.113.9:9", T0 + 5000);
    expect(v?.ban).toEqual({
      tun_id: 7,
      uid: 3,
      node_id: 2,
      ip: "203.0.113.9",
      reason: "60 秒内新建连接超过 3 次",
      at: T0 + 5000,
      until: T0 + 5000 + 3_600_000,
    });
    // Shanghai time in the reason
    expect(v?.reason).toBe("访客 203.0.113.9 已被自动封禁至 2026-11-28 13:00（60 秒内新建连接超过 3 次）");
    // banned, without a second ban decision; other addresses unaffected
    expect(s.check(t, "203.0.113.9:10", T0 + 6000)).toMatchObject({ ban: null });
    expect(s.check(t, "203.0.113.10:1", T0 + 6000)).toBeNull();
    expect(s.check(t, "203.0.113.9:11", T0 + 5000 + 3_599_999)).not.toBeNull();
    // expired: let in, counted afresh
    expect(s.check(t, "203.0.113.9:12", T0 + 5000 + 3_600_000)).toBeNull();
    expect(s.bansOf(7, T0 + 5000 + 3_600_000)).toEqual([]);
  });

  it("counts per window: connections spread wider than the window are never banned", () => {
    const s = new VisitorShield();
    const t = tunnel(shieldOf({ rule }));
    for (let i = 0; i < 12; i++) expect(s.check(t, "[2001:db8::1]:1", T0 + i * 21_000)).toBeNull();
  });

  it("keeps counting a flood of addresses within the window without sweeping on each new one", () => {
    const s = new VisitorShield();
    const t = tunnel(shieldOf({ rule: { conns: 1, window_s: 60, ban_s: 60 } }));
    let let_in = 0;
    const t0 = performance.now();
    for (let i = 0; i < 60_000; i++)
      if (s.check(t, `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}:1`, T0) === null) let_in++;
    // linear: well under a second; sweeping the live counters on each new address takes many
    expect(performance.now() - t0).toBeLessThan(3_000);
    expect(let_in).toBe(60_000);
    // the first address is still counted: its second connection bans it
    expect(s.check(t, "10.0.0.0:2", T0)?.ban?.ip).toBe("10.0.0.0");
  });

  it("counts and bans IPv6 visitors by their /64: addresses rotated inside it are one visitor", () => {
    const s = new VisitorShield();
    const t = tunnel(shieldOf({ rule: { conns: 1, window_s: 86_400, ban_s: 3600 } }));
    const bans: string[] = [];
    let let_in = 0;
    for (let i = 1; i <= 1000; i++) {
      const v = s.check(t, `[2001:db8:2:7::${i.toString(16)}]:1`, T0);
      if (v === null) let_in++;
      else if (v.ban) bans.push(v.ban.ip);
    }
    expect(bans).toEqual(["2001:db8:2:7::/64"]);
    expect(let_in).toBe(1);
    expect(s.bansOf(7, T0)).toEqual(["2001:db8:2:7::/64"]);
    // the next /64 is another visitor
    expect(s.check(t, "[2001:db8:2:8::1]:1", T0)).toBeNull();
    // the console's ban of a /64 holds every address in it (and one of a single address, as older rows are)
    const held = tunnel(
      shieldOf({
        bans: [
          { ip: "2001:db8:2:7::/64", until_ms: T0 + 1000, reason: "x" },
          { ip: "2001:db8:9::5", until_ms: T0 + 1000, reason: "x" },
        ],
      }),
    );
    expect(s.check(held, "[2001:db8:2:7:ffff::1]:1", T0)?.reason).toContain("2001:db8:2:7::/64 已被自动封禁");
    expect(s.check(held, "[2001:db8:9::5]:1", T0)).not.toBeNull();
    expect(s.check(held, "[2001:db8:2:8::1]:1", T0)).toBeNull();
  });

  it("stops banning at the cap of bans in force per tunnel (the console's count too)", () => {
    const s = new VisitorShield();
    const consoleBans = Array.from({ length: 10 }, (_, i) => ({
      ip: `198.51.100.${i}`,
      until_ms: T0 + 9e6,
      reason: "x",
    }));
    const t = tunnel(shieldOf({ rule: { conns: 1, window_s: 60, ban_s: 3600 }, bans: consoleBans }));
    let banned = 0;
    for (let i = 0; i < SHIELD_BAN_CAP + 500; i++) {
      const addr = `10.0.${i >> 8}.${i & 255}:1`;
      s.check(t, addr, T0);
      if (s.check(t, addr, T0)?.ban) banned++;
    }
    expect(banned).toBe(SHIELD_BAN_CAP - 10);
    expect(s.bansOf(7, T0)).toHaveLength(SHIELD_BAN_CAP - 10);
    // the banned stay refused; once its bans expire the rule bans again
    expect(s.check(t, "10.0.0.0:1", T0)).not.toBeNull();
    const later = T0 + 3_600_000;
    s.check(t, "10.9.0.1:1", later);
    expect(s.check(t, "10.9.0.1:1", later)?.ban?.ip).toBe("10.9.0.1");
  });

  it("never bans an address on the allow list", () => {
    const s = new VisitorShield();
    const t = tunnel(shieldOf({ rule, allow: ["203.0.113.0/24"] }));
    for (let i = 0; i < 10; i++) expect(s.check(t, "203.0.113.1:1", T0)).toBeNull();
  });

  it("applies the console's bans until their expiry", () => {
    const s = new VisitorShield();
    const t = tunnel(shieldOf({ bans: [{ ip: "198.51.100.1", until_ms: T0 + 1000, reason: "x" }] }));
    expect(s.check(t, "198.51.100.1:1", T0 + 999)?.reason).toContain("已被自动封禁");
    expect(s.check(t, "198.51.100.1:1", T0 + 1000)).toBeNull();
  });

  it("forgets its own bans and counts when the setting's version changes (an edit or an unban)", () => {
    const s = new VisitorShield();
    const v1 = tunnel(shieldOf({ rule, version: 1 }));
    for (let i = 0; i < 4; i++) s.check(v1, "203.0.113.9:1", T0);
    expect(s.check(v1, "203.0.113.9:1", T0)).not.toBeNull();
    const v2 = tunnel(shieldOf({ rule, version: 2 }));
    expect(s.check(v2, "203.0.113.9:1", T0)).toBeNull();
    expect(s.bansOf(7, T0)).toEqual([]);
  });

  it("does not count an address it cannot read, and refuses it when there is an allow list", () => {
    const s = new VisitorShield();
    const t = tunnel(shieldOf({ rule: { ...rule, conns: 1 } }));
    for (let i = 0; i < 3; i++) expect(s.check(t, "not-an-ip:1", T0)).toBeNull();
    const listed = tunnel(shieldOf({ allow: ["10.0.0.0/8"] }));
    expect(s.check(listed, "", T0)?.reason).toContain("无法识别");
  });
});
