import type { AdminDomainRow, AdminNodeDetail, Paged } from "@burrow/contract";
import { beforeAll, describe, expect, it } from "vitest";
import type { TestDnsServer } from "../../../test/dns-server";
import { domainSuite, GRACE_HOURS } from "../../../test/domain-fixtures";
import { dropPhone, type TestApp } from "../../../test/harness";
import { recheckDomains } from "./domains.service";

/**
 * Customer domains against a real DNS server on loopback (pebble-challtestsrv, DNS_SERVERS):
 * the TXT proof and the CNAME to the node, ownership across customers, the tunnel and NewProxy
 * checks, the daily re-check with its grace period, and the operator's audited unbind.
 */

const suite = domainSuite();
const { name, customer, add, verify, list, owned, web, pluginCall, newProxy } = suite;
let t: TestApp;
let dns: TestDnsServer;
let admin: string;
let node: AdminNodeDetail;
let other: AdminNodeDetail;
beforeAll(() => {
  ({ t, dns, admin, node, other } = suite.get());
});

describe("tunnels use only verified domains", () => {
  it("refuses an unverified, another customer's or another node's domain at creation and edit", async () => {
    const c = await customer();
    const pending = (await add(c, name())).body.data;
    let r = await web(c, [pending.domain]);
    expect([r.status, r.body.code]).toEqual([400, 10000]);
    expect(r.body.msg).toMatch(/custom_domains: .*尚未验证/);
    r = await web(c, [name()]);
    expect([r.status, r.body.code]).toEqual([400, 10000]);
    const theirs = await owned(await customer());
    r = await web(c, [theirs.domain]);
    expect([r.status, r.body.code]).toEqual([409, 40001]);
    const mine = await owned(c);
    r = await web(c, [mine.domain], other.node_id);
    expect([r.status, r.body.code]).toEqual([400, 10000]);
    expect(r.body.msg).toMatch(/另一个节点/);
    r = await web(c, [mine.domain]);
    expect(r.body.code).toBe("SUCCESS");
    const edit = await t.api("PATCH", "/user/tun", {
      token: c.token,
      body: { tun_id: r.body.data.tun_id, custom_domains: [mine.domain, pending.domain] },
    });
    expect([edit.status, edit.body.code]).toEqual([400, 10000]);
    expect(await t.db.selectFrom("tunnels").select("tun_id").where("uid", "=", c.uid).execute()).toHaveLength(1);
  });

  it("NewProxy accepts a verified domain's tunnel", async () => {
    const c = await customer();
    const d = await owned(c);
    const tun = (await web(c, [d.domain])).body.data;
    expect((await newProxy(c, tun)).reject).toBe(false);
  });
});

describe("the daily re-check", () => {
  it("flags a domain whose TXT record vanished; its tunnels keep working for the grace period, then are refused", async () => {
    const c = await customer();
    const d = await owned(c);
    const tun = (await web(c, [d.domain])).body.data;
    const keep = await owned(c);
    await dns.clearTxt(`_burrow-challenge.${d.domain}`);
    // The first miss, seen one hour into the grace period.
    const seen = new Date(Date.now() - 3_600_000);
    const r = await recheckDomains(t.ctx, seen);
    expect(r.flagged).toBeGreaterThanOrEqual(1);
    const mine = (await list(c)).body.data.list;
    const flagged = mine.find((x) => x.id === d.id);
    expect(flagged).toMatchObject({ state: "flagged", flagged_at: seen.toISOString() });
    expect(flagged?.problem).toContain(`缺少 TXT 记录：_burrow-challenge.${d.domain}`);
    expect(flagged?.grace_until).toBe(new Date(seen.getTime() + GRACE_HOURS * 3_600_000).toISOString());
    expect(mine.find((x) => x.id === keep.id)?.state).toBe("verified");
    expect((await newProxy(c, tun)).reject).toBe(false);
    // Seen first past the grace period: NewProxy refuses from memory (no job run needed).
    await t.db
      .updateTable("domains")
      .set({ flagged_at: new Date(Date.now() - (GRACE_HOURS + 1) * 3_600_000).toISOString() })
      .where("id", "=", d.id)
      .execute();
    t.ctx.events.emit("domain.changed", { uid: c.uid });
    const refusedProxy = await newProxy(c, tun);
    expect(refusedProxy.reject).toBe(true);
    expect(refusedProxy.reject_reason).toMatch(/TXT 验证记录已缺失超过宽限期/);
    // The next re-check lapses it and frees the name; publishing the record again and verifying restores it.
    await recheckDomains(t.ctx);
    const lapsed = (await list(c)).body.data.list.find((x) => x.id === d.id);
    expect(lapsed?.state).toBe("pending");
    expect(lapsed?.problem).toMatch(/已失效/);
    await dns.setTxt(`_burrow-challenge.${d.domain}`, d.records[0].value);
    expect((await verify(c, d.id)).body.data.ok).toBe(true);
    expect((await newProxy(c, tun)).reject).toBe(false);
  });

  it("restores a flagged domain whose record is back", async () => {
    const c = await customer();
    const d = await owned(c);
    await dns.clearTxt(`_burrow-challenge.${d.domain}`);
    await recheckDomains(t.ctx);
    expect((await list(c)).body.data.list.find((x) => x.id === d.id)?.state).toBe("flagged");
    await dns.setTxt(`_burrow-challenge.${d.domain}`, d.records[0].value);
    await recheckDomains(t.ctx);
    expect((await list(c)).body.data.list.find((x) => x.id === d.id)).toMatchObject({
      state: "verified",
      flagged_at: null,
    });
  });
});

describe("operators", () => {
  it('show no phone ("") for an owner without one, and the phone of one who has it', async () => {
    const [c, other] = [await customer(), await customer()];
    const domains = [await owned(c), await owned(other)];
    await dropPhone(t, c.uid);
    for (const [d, phone] of [
      [domains[0], ""],
      [domains[1], other.phone],
    ] as const) {
      const r = await t.api<Paged<AdminDomainRow>>("GET", "/super/domain", {
        token: admin,
        query: { domain: d.domain },
      });
      expect(r.body.data.list.map((x) => [x.id, x.phone])).toEqual([[d.id, phone]]);
    }
  });

  it("list every domain with owner, state, tunnels and last check", async () => {
    const c = await customer();
    const d = await owned(c);
    const tun = (await web(c, [d.domain])).body.data;
    const r = await t.api<Paged<AdminDomainRow>>("GET", "/super/domain", {
      token: admin,
      query: { domain: d.domain },
    });
    expect(r.body.data.list).toEqual([
      expect.objectContaining({
        id: d.id,
        uid: c.uid,
        phone: c.phone,
        domain: d.domain,
        state: "verified",
        node_name: node.name,
        tunnels: [{ tun_id: tun.tun_id, tun_name: tun.tun_name }],
        checked_at: expect.any(String),
      }),
    ]);
    const byState = await t.api<Paged<AdminDomainRow>>("GET", "/super/domain", {
      token: admin,
      query: { uid: c.uid, state: "pending" },
    });
    expect(byState.body.data.total).toBe(0);
    const bad = await t.api("GET", "/super/domain", { token: admin, query: { state: "nope" } });
    expect([bad.status, bad.body.code]).toEqual([400, 10000]);
  });

  it("force-unbind with a reason: audited, the held proxy cut at its next heartbeat and refused at its next NewProxy, the customer told", async () => {
    const c = await customer();
    const d = await owned(c);
    const tun = (await web(c, [d.domain])).body.data;
    expect((await newProxy(c, tun)).reject).toBe(false);
    const noReason = await t.api("POST", "/super/domain/unbind", { token: admin, body: { id: d.id, reason: " " } });
    expect([noReason.status, noReason.body.code]).toEqual([400, 10000]);
    const r = await t.api<AdminDomainRow>("POST", "/super/domain/unbind", {
      token: admin,
      body: { id: d.id, reason: "域名所有者投诉" },
    });
    expect(r.body.data).toMatchObject({ state: "unbound", unbind_reason: "域名所有者投诉" });
    const log = await t.db
      .selectFrom("audit_logs")
      .selectAll()
      .where("action", "=", "domain.unbind")
      .where("target", "=", `domain:${d.id}`)
      .executeTakeFirstOrThrow();
    expect(JSON.parse(log.detail)).toMatchObject({ domain: d.domain, uid: c.uid, reason: "域名所有者投诉" });
    // The proxy frps already holds is cut too: the session's next heartbeat is refused, so the
    // name does not stay routed to this tunnel until frpc happens to reconnect.
    const heartbeat = await pluginCall("Ping", c, tun);
    expect(heartbeat.reject).toBe(true);
    expect(heartbeat.reject_reason).toMatch(/未验证或已被解绑/);
    const refusedProxy = await newProxy(c, tun);
    expect(refusedProxy.reject).toBe(true);
    expect(refusedProxy.reject_reason).toMatch(/未验证或已被解绑/);
    // The customer sees why, and can neither verify it again nor remove the row.
    const mine = (await list(c)).body.data.list.find((x) => x.id === d.id);
    expect(mine).toMatchObject({ state: "unbound", unbind_reason: "域名所有者投诉" });
    expect((await verify(c, d.id)).body.code).toBe(2001);
    expect((await t.api("DELETE", "/user/domain", { token: c.token, body: { id: d.id } })).body.code).toBe(2001);
    // Twice is refused; the name is free for its rightful owner.
    expect(
      (await t.api("POST", "/super/domain/unbind", { token: admin, body: { id: d.id, reason: "x" } })).status,
    ).toBe(403);
    await owned(await customer(), d.domain);
  });
});
