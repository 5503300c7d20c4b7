import type {
  AdminDomainRow,
  AdminNodeDetail,
  DomainVerifyResult,
  DomainView,
  Paged,
  TunnelView,
} from "@burrow/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startDnsServer, type TestDnsServer } from "../../../test/dns-server";
import { createTestNode, setPlan } from "../../../test/frp-fixtures";
import { createTestApp, dropPhone, onlyOn, type TestApp } from "../../../test/harness";
import { holding, untilWaiting, whileHeld } from "../../../test/locks";
import { lockUser } from "../../shared/locks";
import { recheckDomains } from "./domains.service";

/**
 * Customer domains against a real DNS server on loopback (pebble-challtestsrv, DNS_SERVERS):
 * the TXT proof and the CNAME to the node, ownership across customers, the tunnel and NewProxy
 * checks, the daily re-check with its grace period, and the operator's audited unbind.
 */
let t: TestApp;
let dns: TestDnsServer;
let admin: string;
let node: AdminNodeDetail;
let other: AdminNodeDetail;
const GRACE_HOURS = 72;

beforeAll(async () => {
  dns = await startDnsServer();
  t = await createTestApp({ DNS_SERVERS: dns.dnsServer, DOMAIN_GRACE_HOURS: String(GRACE_HOURS) });
  admin = await t.adminToken();
  node = await createTestNode(t, { subdomain_host: "frp.example.net" }, admin);
  other = await createTestNode(t, { subdomain_host: "edge.example.net", host: "edge-node.example.net" }, admin);
});
afterAll(async () => {
  await t?.close();
  await dns?.stop();
});

let seq = 0;
const name = () => `shop${++seq}-${process.pid}.example.com`;

async function customer() {
  const u = await t.register();
  await setPlan(t, u.uid, { tunnel_limit: 10, tunnel_peer_port_limit: 5 });
  const info = await t.api<{ frp_token: string }>("GET", "/user/userInfo", { token: u.token });
  return { ...u, frpToken: info.body.data.frp_token };
}
type Customer = Awaited<ReturnType<typeof customer>>;

const add = (c: { token: string }, domain: string, nodeId = node.node_id, extra: Record<string, unknown> = {}) =>
  t.api<DomainView>("POST", "/user/domain", { token: c.token, body: { domain, node_id: nodeId, ...extra } });
const verify = (c: { token: string }, id: number) =>
  t.api<DomainVerifyResult>("POST", "/user/domain/verify", { token: c.token, body: { id } });
const list = (c: { token: string }) => t.api<Paged<DomainView>>("GET", "/user/domain", { token: c.token });

/** Publishes the records Burrow asked for on the test DNS server. */
async function publish(d: DomainView) {
  const txt = d.records.find((r) => r.type === "TXT");
  const cname = d.records.find((r) => r.type === "CNAME");
  if (!txt || !cname) throw new Error(`records missing: ${JSON.stringify(d.records)}`);
  await dns.setTxt(txt.host, txt.value);
  await dns.setCname(cname.host, cname.value);
}

/** Adds, publishes and verifies a domain; returns its view. */
async function owned(c: Customer, domain = name(), nodeId = node.node_id): Promise<DomainView> {
  const a = await add(c, domain, nodeId);
  expect(a.body.code).toBe("SUCCESS");
  await publish(a.body.data);
  const v = await verify(c, a.body.data.id);
  expect(v.body.data.ok).toBe(true);
  return v.body.data.domain;
}

const web = (c: { token: string }, domains: string[], nodeId = node.node_id) =>
  t.api<TunnelView>("POST", "/user/tun", {
    token: c.token,
    body: { tun_name: `web${++seq}`, protocol: "http", local_port: 80, node_id: nodeId, custom_domains: domains },
  });

/** frps's NewProxy for a customer's http tunnel, as frps posts it. */
/** One frps plugin call for this tunnel's frpc session (the same run id every time). */
async function pluginCall(op: "NewProxy" | "Ping", c: Customer, tun: TunnelView, n: AdminNodeDetail = node) {
  const user = { user: `u_${c.uid}`, metas: { token: c.frpToken }, run_id: `run${c.uid}${tun.tun_id}` };
  const content =
    op === "NewProxy"
      ? { user, proxy_name: `u_${c.uid}.t_${tun.tun_id}`, proxy_type: "http", custom_domains: tun.custom_domains }
      : { user, timestamp: Math.floor(Date.now() / 1000) };
  const res = await t.app.inject({
    method: "POST",
    url: `/api/frp/plugin/${n.node_id}/${n.plugin_secret}?op=${op}&version=0.1.0`,
    headers: { "content-type": "application/json" },
    payload: JSON.stringify({ version: "0.1.0", op, content }),
  });
  return res.json() as { reject: boolean; reject_reason?: string };
}

const newProxy = (c: Customer, tun: TunnelView, n: AdminNodeDetail = node) => pluginCall("NewProxy", c, tun, n);

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
      [{ domain: "*.example.com", node_id: node.node_id }, "domain"],
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
