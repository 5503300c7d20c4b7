import type { AdminNodeDetail } from "@burrow/contract";
import { beforeAll, describe, expect, it } from "vitest";
import type { TestDnsServer } from "../../../test/dns-server";
import { domainSuite } from "../../../test/domain-fixtures";
import { createTestNode } from "../../../test/frp-fixtures";
import { onlyOn, type TestApp } from "../../../test/harness";
import { holding, untilWaiting, whileHeld } from "../../../test/locks";
import { lockUser } from "../../shared/locks";

/**
 * Customer domains against a real DNS server on loopback (pebble-challtestsrv, DNS_SERVERS):
 * the TXT proof and the CNAME to the node, ownership across customers, the tunnel and NewProxy
 * checks, the daily re-check with its grace period, and the operator's audited unbind.
 */

const suite = domainSuite();
const { name, customer, add, verify, list, publish, owned, web } = suite;
let t: TestApp;
let dns: TestDnsServer;
let admin: string;
let node: AdminNodeDetail;
beforeAll(() => {
  ({ t, dns, admin, node } = suite.get());
});

describe("adding and verifying a domain", () => {
  it("shows the TXT record and the CNAME target, and verifies once both resolve", async () => {
    const c = await customer();
    const domain = name();
    const a = await add(c, ` ${domain.toUpperCase()}. `);
    expect(a.body.code).toBe("SUCCESS");
    const d = a.body.data;
    expect(d).toMatchObject({ domain, state: "pending", node_id: node.node_id, tunnels: [] });
    expect(d.records).toEqual([
      { type: "TXT", host: `_burrow-challenge.${domain}`, value: expect.stringMatching(/^[\w-]{32}$/) },
      { type: "CNAME", host: domain, value: "frp.example.net" },
    ]);
    await publish(d);
    const v = await verify(c, d.id);
    expect(v.body.data.ok).toBe(true);
    expect(v.body.data.domain).toMatchObject({ state: "verified", problem: null });
    expect(v.body.data.domain.verified_at).toBeTruthy();
    // Each domain gets its own token.
    const b = await add(c, name());
    expect(b.body.data.records[0].value).not.toBe(d.records[0].value);
  });

  it("says exactly which record is missing or wrong, and stays pending", async () => {
    const c = await customer();
    const domain = name();
    const d = (await add(c, domain)).body.data;
    const token = d.records[0].value;
    // Nothing published.
    let v = await verify(c, d.id);
    expect(v.body.data.ok).toBe(false);
    expect(v.body.data.domain.state).toBe("pending");
    expect(v.body.data.domain.problem).toContain(`缺少 TXT 记录：_burrow-challenge.${domain}，值应为 “${token}”`);
    expect(v.body.data.domain.problem).toContain(`缺少 CNAME 记录：${domain} 应指向 “frp.example.net”`);
    // A wrong TXT value, the CNAME right.
    await dns.setTxt(`_burrow-challenge.${domain}`, "not-the-token");
    await dns.setCname(domain, "frp.example.net");
    v = await verify(c, d.id);
    expect(v.body.data.ok).toBe(false);
    expect(v.body.data.domain.problem).toBe(
      `TXT 记录 _burrow-challenge.${domain} 的值为 “not-the-token”，应为 “${token}”`,
    );
    // The TXT right, the CNAME pointing elsewhere.
    await dns.setTxt(`_burrow-challenge.${domain}`, token);
    await dns.setCname(domain, "elsewhere.example.org");
    v = await verify(c, d.id);
    expect(v.body.data.ok).toBe(false);
    expect(v.body.data.domain.problem).toBe(
      `CNAME 记录 ${domain} 指向 “elsewhere.example.org”，应指向 “frp.example.net”`,
    );
    // The CNAME gone.
    await dns.clearCname(domain);
    v = await verify(c, d.id);
    expect(v.body.data.domain.problem).toBe(`缺少 CNAME 记录：${domain} 应指向 “frp.example.net”`);
    expect(v.body.data.domain.state).toBe("pending");
    expect(v.body.data.domain.checked_at).toBeTruthy();
    // The CNAME target is the chosen node's: another node's name does not do.
    await dns.setCname(domain, "edge.example.net");
    expect((await verify(c, d.id)).body.data.ok).toBe(false);
    await dns.setCname(domain, "frp.example.net");
    expect((await verify(c, d.id)).body.data.ok).toBe(true);
  });

  it("refuses a domain another customer verified (40001), before and at verification", async () => {
    const a = await customer();
    const b = await customer();
    const domain = name();
    // b added it first but never verified; a proves control.
    const early = (await add(b, domain)).body.data;
    await owned(a, domain);
    const late = await add(b, domain);
    expect([late.status, late.body.code]).toEqual([409, 40001]);
    const v = await verify(b, early.id);
    expect([v.status, v.body.code]).toEqual([409, 40001]);
    // The same customer adding it twice is 40008.
    const twice = await add(a, domain.toUpperCase());
    expect([twice.status, twice.body.code]).toEqual([409, 40008]);
  });

  it("refuses bad input with 400/10000 naming the field, and writes nothing", async () => {
    const c = await customer();
    const before = await t.db.selectFrom("domains").select("id").execute();
    const cases: [Record<string, unknown>, string][] = [
      [{ domain: "*.com", node_id: node.node_id }, "domain"],
      [{ domain: "localhost", node_id: node.node_id }, "domain"],
      [{ domain: "203.0.113.9", node_id: node.node_id }, "domain"],
      [{ domain: "a.example.com/x", node_id: node.node_id }, "domain"],
      [{ domain: "x.frp.example.net", node_id: node.node_id }, "domain"],
      [{ domain: name() }, "node_id"],
      [{ domain: name(), node_id: "1" }, "node_id"],
      [{ domain: name(), node_id: 999999 }, "node_id"],
      [{ domain: name(), node_id: node.node_id, icp_no: "12345" }, "icp_no"],
    ];
    for (const [body, field] of cases) {
      const r = await t.api<{ field?: string }>("POST", "/user/domain", { token: c.token, body });
      expect([body, r.status, r.body.code, r.body.data?.field]).toEqual([body, 400, 10000, field]);
    }
    for (const body of [{}, { id: "x" }, { id: 0 }]) {
      const r = await t.api("POST", "/user/domain/verify", { token: c.token, body });
      expect([r.status, r.body.code]).toEqual([400, 10000]);
    }
    expect(await t.db.selectFrom("domains").select("id").execute()).toHaveLength(before.length);
  });

  it("requires an ICP filing number on nodes of an area that requires one", async () => {
    const area = await t.api<{ area_id: number; icp_required: number }>("POST", "/super/area", {
      token: admin,
      body: { area_name: `华东-${process.pid}`, icp_required: 1 },
    });
    expect(area.body.data.icp_required).toBe(1);
    const mainland = await createTestNode(
      t,
      { area_id: area.body.data.area_id, subdomain_host: "cn.example.net" },
      admin,
    );
    const c = await customer();
    const missing = await add(c, name(), mainland.node_id);
    expect([missing.status, missing.body.code]).toEqual([400, 10000]);
    expect(missing.body.msg).toMatch(/icp_no: .*备案号/);
    const ok = await add(c, name(), mainland.node_id, { icp_no: "京ICP备12345678号-1" });
    expect(ok.body.data).toMatchObject({ icp_no: "京ICP备12345678号-1", state: "pending" });
    // Turned off, the number is optional again.
    await t.api("PATCH", "/super/area", { token: admin, body: { area_id: area.body.data.area_id, icp_required: 0 } });
    expect((await add(c, name(), mainland.node_id)).body.code).toBe("SUCCESS");
  });
});

describe("a customer's domains are the customer's own", () => {
  it("another customer cannot see, verify or delete them", async () => {
    const a = await customer();
    const b = await customer();
    const d = (await add(a, name())).body.data;
    expect((await list(b)).body.data.list.map((x) => x.id)).not.toContain(d.id);
    expect((await list(a)).body.data.list.map((x) => x.id)).toContain(d.id);
    const v = await verify(b, d.id);
    expect([v.status, v.body.code]).toEqual([404, 2004]);
    const del = await t.api("DELETE", "/user/domain", { token: b.token, body: { id: d.id } });
    expect([del.status, del.body.code]).toEqual([404, 2004]);
    expect(await t.db.selectFrom("domains").select("id").where("id", "=", d.id).executeTakeFirst()).toBeTruthy();
    // Nor read the operator list.
    const sup = await t.api("GET", "/super/domain", { token: b.token });
    expect(sup.status).toBe(403);
  });

  it("deletes a domain no tunnel uses, and refuses while one does", async () => {
    const c = await customer();
    const d = await owned(c);
    const tun = await web(c, [d.domain]);
    expect(tun.body.code).toBe("SUCCESS");
    expect((await list(c)).body.data.list.find((x) => x.id === d.id)?.tunnels).toEqual([
      { tun_id: tun.body.data.tun_id, tun_name: tun.body.data.tun_name },
    ]);
    const busy = await t.api("DELETE", "/user/domain", { token: c.token, body: { id: d.id } });
    expect([busy.status, busy.body.code]).toEqual([403, 2001]);
    await t.api("DELETE", "/user/tun", { token: c.token, body: { tun_id: tun.body.data.tun_id } });
    const del = await t.api("DELETE", "/user/domain", { token: c.token, body: { id: d.id } });
    expect(del.body.code).toBe("SUCCESS");
    // The name is free for someone else now.
    await owned(await customer(), d.domain);
  });

  // PostgreSQL only: SQLite runs one write transaction at a time.
  it(
    "never both: a tunnel written while its domain is deleted keeps the domain, or finds it gone",
    onlyOn("postgres", "SQLite runs one write transaction at a time: the two cannot interleave"),
    async () => {
      const c = await customer();
      const d = await owned(c);
      let deletion: Promise<{ body: { code: string | number } }> | undefined;
      // The customer's lock held (as a payment of theirs would) while the tunnel and the deletion come.
      const tun = await whileHeld(
        t,
        holding(t, (trx) => lockUser(trx, c.uid)),
        () => web(c, [d.domain]),
        async () => {
          deletion = t.api("DELETE", "/user/domain", { token: c.token, body: { id: d.id } });
          await untilWaiting(t, 2);
        },
      );
      // The tunnel came first: it is written with the domain, and the deletion then sees it.
      expect([tun.body.code, (await deletion)?.body.code]).toEqual(["SUCCESS", 2001]);
      expect((await list(c)).body.data.list.map((x) => x.id)).toContain(d.id);
    },
  );
});
