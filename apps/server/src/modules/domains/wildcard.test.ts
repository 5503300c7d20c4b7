import type { AdminNodeDetail, DomainView, TunnelView } from "@burrow/contract";
import { domainHolding, type UsableDomain, type UserEntry, userFromWire, userToWire } from "@burrow/frp-decision";
import { beforeAll, describe, expect, it } from "vitest";
import type { TestDnsServer } from "../../../test/dns-server";
import { type DomainCustomer, domainSuite } from "../../../test/domain-fixtures";
import type { TestApp } from "../../../test/harness";
import { recheckDomains } from "./domains.service";

/**
 * Wildcard custom domains (`*.<apex>`, docs/domains.md 通配符域名) against the real DNS server on
 * loopback: proved by the apex's TXT record and a CNAME seen through `_burrow-probe.<apex>`; the
 * provider's names and public suffixes refused; covered plain names on tunnels, another customer's
 * exact name winning over the wildcard at the console and at NewProxy; the daily re-check.
 */

const suite = domainSuite();
const { customer, add, verify, list, web, owned, newProxy } = suite;
let t: TestApp;
let dns: TestDnsServer;
let node: AdminNodeDetail;
let other: AdminNodeDetail;
beforeAll(() => {
  ({ t, dns, node, other } = suite.get());
});

let seq = 0;
const apexName = () => `w${++seq}-${process.pid}.example.com`;

/** Adds `*.<apex>`, publishes the apex TXT and the probe's CNAME, verifies. */
async function ownWildcard(c: DomainCustomer, apex = apexName(), n = node): Promise<DomainView> {
  const a = await add(c, `*.${apex}`, n.node_id);
  expect(a.body.code).toBe("SUCCESS");
  const txt = a.body.data.records[0];
  await dns.setTxt(txt.host, txt.value);
  await dns.setCname(`_burrow-probe.${apex}`, n.subdomain_host as string);
  const v = await verify(c, a.body.data.id);
  expect(v.body.data.ok).toBe(true);
  return v.body.data.domain;
}

describe("adding and verifying a wildcard", () => {
  it("asks for the apex's TXT record and a wildcard CNAME, checked through a probe name", async () => {
    const c = await customer();
    const apex = apexName();
    const a = await add(c, ` *.${apex.toUpperCase()}. `);
    expect(a.body.code).toBe("SUCCESS");
    const d = a.body.data;
    expect(d).toMatchObject({ domain: `*.${apex}`, state: "pending" });
    expect(d.records).toEqual([
      { type: "TXT", host: `_burrow-challenge.${apex}`, value: expect.stringMatching(/^[\w-]{32}$/) },
      { type: "CNAME", host: `*.${apex}`, value: "frp.example.net" },
    ]);
    let v = await verify(c, d.id);
    expect(v.body.data.ok).toBe(false);
    expect(v.body.data.domain.problem).toContain(`缺少 TXT 记录：_burrow-challenge.${apex}`);
    expect(v.body.data.domain.problem).toContain(
      `缺少 CNAME 记录：*.${apex}（以 _burrow-probe.${apex} 查询） 应指向 “frp.example.net”`,
    );
    // The TXT on the wildcard's own name proves nothing: the apex's is the proof.
    await dns.setTxt(`_burrow-challenge.*.${apex}`, d.records[0].value);
    await dns.setCname(`_burrow-probe.${apex}`, "frp.example.net");
    v = await verify(c, d.id);
    expect(v.body.data.ok).toBe(false);
    // The probe pointing elsewhere is named.
    await dns.setTxt(`_burrow-challenge.${apex}`, d.records[0].value);
    await dns.setCname(`_burrow-probe.${apex}`, "elsewhere.example.org");
    v = await verify(c, d.id);
    expect(v.body.data.domain.problem).toBe(
      `CNAME 记录 *.${apex}（以 _burrow-probe.${apex} 查询） 指向 “elsewhere.example.org”，应指向 “frp.example.net”`,
    );
    await dns.setCname(`_burrow-probe.${apex}`, "frp.example.net");
    v = await verify(c, d.id);
    expect(v.body.data.domain).toMatchObject({ state: "verified", problem: null });
  });

  it("refuses public suffixes, misplaced or double wildcards and the provider's names, writing nothing", async () => {
    const c = await customer();
    const before = await t.db.selectFrom("domains").select("id").execute();
    const bad = [
      "*",
      "*.",
      "*.com",
      "*.com.cn",
      "*.co.uk",
      "*.*.example.com",
      "a.*.example.com",
      "*a.example.com",
      "example.*",
      // under a node's subdomain host: it would take every customer's subdomain there
      "*.frp.example.net",
      "*.x.frp.example.net",
      // covering one: the node's unused subdomains would fall to it
      "*.example.net",
      // the other node's host name
      "*.edge-node.example.net",
    ];
    for (const domain of bad) {
      const r = await t.api<{ field?: string }>("POST", "/user/domain", {
        token: c.token,
        body: { domain, node_id: node.node_id },
      });
      expect([domain, r.status, r.body.code, r.body.data?.field]).toEqual([domain, 400, 10000, "domain"]);
    }
    expect(await t.db.selectFrom("domains").select("id").execute()).toHaveLength(before.length);
    const why = await t.api("POST", "/user/domain", { token: c.token, body: { domain: "*.example.net", node_id: 1 } });
    expect(why.body.msg).toMatch(/包含服务商的域名 (frp|edge|edge-node)\.example\.net/);
  });

  it("is held by one customer at a time; another customer's exact name under it still verifies", async () => {
    const a = await customer();
    const b = await customer();
    const apex = apexName();
    await ownWildcard(a, apex);
    const taken = await add(b, `*.${apex}`);
    expect([taken.status, taken.body.code]).toEqual([409, 40001]);
    // b proves its own name under a's wildcard, and the apex itself.
    await owned(b, `shop.${apex}`);
    await owned(b, apex);
  });
});

describe("tunnels on a wildcard", () => {
  it("accepts the wildcard and the plain names one label under it, nothing deeper, on its node only", async () => {
    const a = await customer();
    const apex = apexName();
    // Not yet verified: refused.
    const pending = (await add(a, `*.${apex}`)).body.data;
    const early = await web(a, [`*.${apex}`]);
    expect([early.status, early.body.code]).toEqual([400, 10000]);
    expect(early.body.msg).toContain("尚未验证");
    await dns.setTxt(`_burrow-challenge.${apex}`, pending.records[0].value);
    await dns.setCname(`_burrow-probe.${apex}`, "frp.example.net");
    expect((await verify(a, pending.id)).body.data.ok).toBe(true);

    const tun = await web(a, [`*.${apex}`, `a.${apex}`]);
    expect(tun.body.code).toBe("SUCCESS");
    expect(tun.body.data.custom_domains).toEqual([`*.${apex}`, `a.${apex}`]);
    expect((await newProxy(a, tun.body.data)).reject).toBe(false);
    // The domain page lists the tunnel under the wildcard.
    const row = (await list(a)).body.data.list.find((d) => d.domain === `*.${apex}`);
    expect(row?.tunnels.map((x) => x.tun_id)).toEqual([tun.body.data.tun_id]);

    for (const deep of [`x.y.${apex}`, apex]) {
      const r = await web(a, [deep]);
      expect([deep, r.status, r.body.code]).toEqual([deep, 400, 10000]);
    }
    const elsewhere = await web(a, [`b.${apex}`], other.node_id);
    expect([elsewhere.status, elsewhere.body.code]).toEqual([400, 10000]);
    expect(elsewhere.body.msg).toContain(`b.${apex}（泛域名 *.${apex}） 解析到另一个节点`);
    // Another customer gets nothing under it: the wildcard is a's (40001), a name under it unproved.
    const c = await customer();
    const theirs = await web(c, [`*.${apex}`]);
    expect([theirs.status, theirs.body.code]).toEqual([409, 40001]);
    const under = await web(c, [`c.${apex}`]);
    expect([under.status, under.body.code]).toEqual([400, 10000]);
    // Editing a tunnel to a covered name passes the same check.
    const edit = await t.api("PATCH", "/user/tun", {
      token: a.token,
      body: { tun_id: tun.body.data.tun_id, custom_domains: [`z.${apex}`] },
    });
    expect(edit.body.code).toBe("SUCCESS");
    // A tunnel on a covered name uses the wildcard: listed under it, and the wildcard cannot go.
    const uses = (await list(a)).body.data.list.find((d) => d.domain === `*.${apex}`);
    expect(uses?.tunnels.map((x) => x.tun_id)).toEqual([tun.body.data.tun_id]);
    const del = await t.api("DELETE", "/user/domain", { token: a.token, body: { id: pending.id } });
    expect([del.status, del.body.code]).toEqual([403, 2001]);
    const badEdit = await t.api("PATCH", "/user/tun", {
      token: a.token,
      body: { tun_id: tun.body.data.tun_id, custom_domains: [`z.q.${apex}`] },
    });
    expect([badEdit.status, badEdit.body.code]).toEqual([400, 10000]);
  });

  it("leaves another customer's exact name to them: 40001 at the console, refused at NewProxy once they verify", async () => {
    const a = await customer();
    const b = await customer();
    const apex = apexName();
    await ownWildcard(a, apex);
    const tun = (await web(a, [`*.${apex}`, `shop.${apex}`])).body.data;
    expect((await newProxy(a, tun)).reject).toBe(false);
    // b proves shop.<apex> after a's tunnel was written: a's NewProxy stops covering it.
    const mine = await owned(b, `shop.${apex}`);
    const r = await newProxy(a, tun);
    expect(r.reject).toBe(true);
    expect(r.reject_reason).toContain(`shop.${apex} 已被其他用户验证`);
    const again = await web(a, [`shop.${apex}`]);
    expect([again.status, again.body.code]).toEqual([409, 40001]);
    // The wildcard alone still serves a (frps routes shop.<apex> to b's exact proxy first).
    const c = await customer();
    const wide = await web(c, [`*.${apex}`]);
    expect([wide.status, wide.body.code]).toEqual([409, 40001]);
    const narrowed = await t.api<TunnelView>("PATCH", "/user/tun", {
      token: a.token,
      body: { tun_id: tun.tun_id, custom_domains: [`*.${apex}`] },
    });
    expect((await newProxy(a, narrowed.body.data)).reject).toBe(false);
    // b lets the name go: a's wildcard covers it again.
    await t.api("DELETE", "/user/domain", { token: b.token, body: { id: mine.id } });
    const back = await t.api<TunnelView>("PATCH", "/user/tun", {
      token: a.token,
      body: { tun_id: tun.tun_id, custom_domains: [`*.${apex}`, `shop.${apex}`] },
    });
    expect(back.body.code).toBe("SUCCESS");
    expect((await newProxy(a, back.body.data)).reject).toBe(false);
  });

  it("is re-checked daily by the apex's TXT record", async () => {
    const a = await customer();
    const apex = apexName();
    const d = await ownWildcard(a, apex);
    await dns.clearTxt(`_burrow-challenge.${apex}`);
    await recheckDomains(t.ctx);
    let row = (await list(a)).body.data.list.find((x) => x.id === d.id);
    expect(row?.state).toBe("flagged");
    expect(row?.problem).toContain(`缺少 TXT 记录：_burrow-challenge.${apex}`);
    await dns.setTxt(`_burrow-challenge.${apex}`, d.records[0].value);
    await recheckDomains(t.ctx);
    row = (await list(a)).body.data.list.find((x) => x.id === d.id);
    expect(row?.state).toBe("verified");
  });
});

describe("the rule NewProxy applies (frp-decision, the console's and the agent's)", () => {
  it("covers one label under a held wildcard, not deeper, not a taken name, and the agent's copy keeps `taken`", () => {
    const held: UsableDomain = { node_id: 3, untilMs: Number.POSITIVE_INFINITY };
    const domains = new Map<string, UsableDomain>([
      ["*.a.example.com", held],
      ["b.a.example.com", { ...held, taken: true as const }],
    ]);
    expect(domainHolding(domains, "x.a.example.com")).toBe(held);
    expect(domainHolding(domains, "*.a.example.com")).toBe(held);
    expect(domainHolding(domains, "y.x.a.example.com")).toBeUndefined();
    expect(domainHolding(domains, "a.example.com")).toBeUndefined();
    expect(domainHolding(domains, "b.a.example.com")?.taken).toBe(true);
    const user = {
      uid: 1,
      active: true,
      token: "t",
      limits: null,
      endMs: null,
      tunnels: new Map(),
      kicks: new Set(),
      domains,
    };
    const copy = userFromWire(JSON.parse(JSON.stringify(userToWire(user as UserEntry))));
    expect([...copy.domains]).toEqual([
      ["*.a.example.com", held],
      ["b.a.example.com", { ...held, taken: true }],
    ]);
  });
});
