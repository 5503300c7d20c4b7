import type { AdminNodeDetail, IllegalFlagRow, IllegalRuleRow, Paged, TunnelView } from "@burrow/contract";
import { describe, expect, it } from "vitest";
import { tunnelSuite } from "../../../test/domain-fixtures";
import { createTestNode, createTestTunnel, registerWithPlan } from "../../../test/frp-fixtures";
import type { TestApp } from "../../../test/harness";

let t: TestApp;
let admin: string;
let node: AdminNodeDetail;
tunnelSuite((ready) => ({ t, admin, node } = ready), { host: "203.0.113.50" });

const customer = () => registerWithPlan(t);

describe("illegal tunnels (/super/tun/illegal)", () => {
  it("manages rules, flags new tunnels that break them, and lists flags with filters", async () => {
    const kw = await t.api<IllegalRuleRow>("POST", "/super/tun/illegal/rule", {
      token: admin,
      body: { kind: "keyword", value: "Casino", note: "赌博" },
    });
    expect(kw.body.data).toMatchObject({ kind: "keyword", value: "casino", hits: 0 });
    const port = await t.api<IllegalRuleRow>("POST", "/super/tun/illegal/rule", {
      token: admin,
      body: { kind: "port", value: "20095-20096" },
    });
    expect(
      (await t.api("POST", "/super/tun/illegal/rule", { token: admin, body: { kind: "keyword", value: "casino" } }))
        .body.code,
    ).toBe(40008);
    const badPort = await t.api("POST", "/super/tun/illegal/rule", {
      token: admin,
      body: { kind: "port", value: "70000" },
    });
    expect(badPort.body.code).toBe(10000);
    expect(badPort.body.msg).toContain("value");

    const u = await customer();
    // its own node: other tests take random ports on the shared one, 20095 among them perhaps
    const own = await createTestNode(t, {}, admin);
    const byName = await createTestTunnel(t, u.token, { node_id: own.node_id, tun_name: "my-CASINO" });
    const byDomain = await createTestTunnel(t, u.token, {
      node_id: own.node_id,
      protocol: "http",
      custom_domains: ["best-casino.example.com"],
    });
    const byPort = await createTestTunnel(t, u.token, { node_id: own.node_id, remote_port: 20095 });
    const clean = await createTestTunnel(t, u.token, { node_id: own.node_id, tun_name: "fine" });
    const flags = await t.api<Paged<IllegalFlagRow>>("GET", "/super/tun/illegal", {
      token: admin,
      query: { uid: u.uid, size: 50 },
    });
    const flagged = flags.body.data.list.map((f) => f.tun_id).sort((a, b) => a - b);
    expect(flagged).toEqual([byName.tun_id, byDomain.tun_id, byPort.tun_id].sort((a, b) => a - b));
    expect(flagged).not.toContain(clean.tun_id);
    const domainFlag = flags.body.data.list.find((f) => f.tun_id === byDomain.tun_id)!;
    expect(domainFlag).toMatchObject({
      source: "rule",
      status: 1,
      rule_id: kw.body.data.id,
      phone: u.phone,
      addresses: ["http://best-casino.example.com"],
    });
    expect(domainFlag.reason).toContain("best-casino.example.com");
    const rules = await t.api<Paged<IllegalRuleRow>>("GET", "/super/tun/illegal/rule", {
      token: admin,
      query: { kind: "port" },
    });
    expect(rules.body.data.list.find((r) => r.id === port.body.data.id)?.hits).toBe(1);
    // a random port never lands on a blocked one
    for (let i = 0; i < 5; i++) {
      const r = await createTestTunnel(t, u.token, { node_id: own.node_id });
      expect([20095, 20096]).not.toContain(r.remote_port);
    }
    expect(
      (await t.api("DELETE", "/super/tun/illegal/rule", { token: admin, body: { id: port.body.data.id } })).body.code,
    ).toBe("SUCCESS");
  });

  it("bans (locks the tunnel) or clears a flag; a cleared rule flag comes back only after an edit", async () => {
    const rule = await t.api<IllegalRuleRow>("POST", "/super/tun/illegal/rule", {
      token: admin,
      body: { kind: "keyword", value: "phish" },
    });
    const u = await customer();
    const a = await createTestTunnel(t, u.token, { node_id: node.node_id, tun_name: "phish-a" });
    const b = await createTestTunnel(t, u.token, { node_id: node.node_id, tun_name: "phish-b" });
    const list = async () =>
      (await t.api<Paged<IllegalFlagRow>>("GET", "/super/tun/illegal", { token: admin, query: { uid: u.uid } })).body
        .data.list;
    const fa = (await list()).find((f) => f.tun_id === a.tun_id)!;
    const fb = (await list()).find((f) => f.tun_id === b.tun_id)!;
    const ban = await t.api("PATCH", "/super/tun/illegal", {
      token: admin,
      body: { id: fa.id, action: "ban", banned_reason: "钓鱼" },
    });
    expect(ban.body.code).toBe("SUCCESS");
    expect((await t.api<TunnelView>("GET", `/user/tun/${a.tun_id}`, { token: u.token })).body.data).toMatchObject({
      status: 3,
      banned_reason: "钓鱼",
    });
    const again = await t.api("PATCH", "/super/tun/illegal", { token: admin, body: { id: fa.id, action: "clear" } });
    expect(again.body.code).toBe(2001);
    await t.api("PATCH", "/super/tun/illegal", { token: admin, body: { id: fb.id, action: "clear" } });
    const after = await list();
    expect(after.find((f) => f.id === fa.id)).toMatchObject({ status: 2, tun_status: 3 });
    expect(after.find((f) => f.id === fb.id)).toMatchObject({ status: 3, tun_status: 2 });
    const pending = await t.api<Paged<IllegalFlagRow>>("GET", "/super/tun/illegal", {
      token: admin,
      query: { uid: u.uid, status: 1 },
    });
    expect(pending.body.data.total).toBe(0);
    // editing the tunnel judges it again
    await t.api("PATCH", "/user/tun", { token: u.token, body: { tun_id: b.tun_id, tun_name: "phish-c" } });
    const rejudged = await t.api<Paged<IllegalFlagRow>>("GET", "/super/tun/illegal", {
      token: admin,
      query: { tun_id: b.tun_id, status: 1 },
    });
    expect(rejudged.body.data.list.map((f) => f.rule_id)).toEqual([rule.body.data.id]);
    expect(
      (await t.api("PATCH", "/super/tun/illegal", { token: admin, body: { id: 1, action: "nuke" } })).body.code,
    ).toBe(10000);
    expect(
      (await t.api("PATCH", "/super/tun/illegal", { token: admin, body: { id: 999999, action: "ban" } })).status,
    ).toBe(404);
  });

  it("takes abuse reports by domain, host:port or URL, limited per address", async () => {
    const u = await customer();
    const web = await createTestTunnel(t, u.token, {
      node_id: node.node_id,
      protocol: "http",
      custom_domains: ["report-me.example.com"],
    });
    const tcp = await createTestTunnel(t, u.token, { node_id: node.node_id });
    for (const target of ["https://report-me.example.com/login?x=1", "REPORT-ME.example.com"]) {
      const r = await t.api("POST", "/public/abuse", { body: { target, reason: "钓鱼页面", contact: "a@b.c" } });
      expect(r.body.code).toBe("SUCCESS");
    }
    const r2 = await t.api("POST", "/public/abuse", {
      body: { target: `203.0.113.50:${tcp.remote_port}`, reason: "扫描" },
    });
    expect(r2.body.code).toBe("SUCCESS");
    const reports = await t.api<Paged<IllegalFlagRow>>("GET", "/super/tun/illegal", {
      token: admin,
      query: { source: "report", uid: u.uid },
    });
    // one pending report per tunnel is enough
    expect(reports.body.data.list.map((f) => f.tun_id).sort()).toEqual([web.tun_id, tcp.tun_id].sort());
    expect(reports.body.data.list.find((f) => f.tun_id === web.tun_id)).toMatchObject({ reporter: "a@b.c", status: 1 });
    const unknown = await t.api("POST", "/public/abuse", { body: { target: "nobody.example.org", reason: "垃圾" } });
    expect(unknown.body.code).toBe(10000);
    expect(unknown.body.msg).toContain("target");
    const noReason = await t.api("POST", "/public/abuse", { body: { target: "x.example.org" } });
    expect(noReason.body.msg).toContain("reason");
    let limited = 0;
    for (let i = 0; i < 12; i++) {
      const r = await t.api("POST", "/public/abuse", {
        body: { target: "nobody.example.org", reason: "垃圾" },
        ip: "192.0.2.77",
      });
      if (r.status === 429) limited++;
    }
    expect(limited).toBeGreaterThan(0);
  });

  it("a report naming a host under a wildcard tunnel finds the tunnel frps routes it to: the exact name first, then the closest wildcard up", async () => {
    const [wild, exact, deep] = await Promise.all([customer(), customer(), customer()]);
    const own = await createTestNode(t, {}, admin);
    const web = (c: { token: string }, domain: string) =>
      createTestTunnel(t, c.token, { node_id: own.node_id, protocol: "http", custom_domains: [domain] });
    const wildTun = await web(wild, "*.abuse-wild.example.com");
    const exactTun = await web(exact, "shop.abuse-wild.example.com");
    const deepTun = await web(deep, "*.deep.abuse-wild.example.com");
    const report = (target: string) =>
      t.api("POST", "/public/abuse", { body: { target, reason: "钓鱼页面" }, ip: "192.0.2.78" });
    const flagged = async (uid: number) =>
      (
        await t.api<Paged<IllegalFlagRow>>("GET", "/super/tun/illegal", {
          token: admin,
          query: { source: "report", uid },
        })
      ).body.data.list.map((f) => f.tun_id);
    for (const target of [
      "https://shop.abuse-wild.example.com/login", // the exact name: its owner
      "https://other.abuse-wild.example.com/", // one label under: the wildcard
      "a.b.abuse-wild.example.com", // deeper: frps walks up to the wildcard too
      "x.deep.abuse-wild.example.com", // the closer wildcard wins
    ])
      expect((await report(target)).body.code).toBe("SUCCESS");
    expect(await flagged(exact.uid)).toEqual([exactTun.tun_id]);
    expect(await flagged(wild.uid)).toEqual([wildTun.tun_id]);
    expect(await flagged(deep.uid)).toEqual([deepTun.tun_id]);
    // the apex is no name under its wildcard
    const apex = await report("abuse-wild.example.com");
    expect(apex.body.code).toBe(10000);
    expect(apex.body.msg).toContain("target");
  });
});
