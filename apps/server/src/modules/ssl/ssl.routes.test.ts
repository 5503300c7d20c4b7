import { X509Certificate } from "node:crypto";
import http from "node:http";
import type {
  DomainVerifyResult,
  DomainView,
  SslCertView,
  SslOrderView,
  SslOverview,
  TunnelConfig,
} from "@burrow/contract";
import * as acme from "acme-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AcmeServer, startAcmeServer } from "../../../test/acme-server";
import { DAY, makeChain } from "../../../test/certs";
import { startDnsServer, type TestDnsServer } from "../../../test/dns-server";
import { createTestNode, createTestTunnel, setPlan } from "../../../test/frp-fixtures";
import { createTestApp, type TestApp } from "../../../test/harness";
import { advanceDueIssues } from "./acme-steps";
import { renewDueCertificates } from "./renewals";
import { openKey, sealKey } from "./secret";

let t: TestApp;
let dns: TestDnsServer;
let pebble: AcmeServer;
let nodeId: number;
let seq = 0;

/** A web server standing in for the customer's site behind its http tunnel (HTTP-01 files). */
let site: http.Server;
const siteFiles = new Map<string, string>();

beforeAll(async () => {
  dns = await startDnsServer();
  pebble = await startAcmeServer({ dnsServer: dns.dnsServer });
  // Only this test process trusts pebble's own HTTPS certificate.
  acme.axios.defaults.httpsAgent = pebble.agent;
  site = http.createServer((req, res) => {
    const body = siteFiles.get(req.url ?? "");
    res.writeHead(body ? 200 : 404, { "content-type": "text/plain" }).end(body ?? "not found");
  });
  await new Promise<void>((r) => site.listen(pebble.httpPort, "127.0.0.1", r));
  t = await createTestApp({
    ACME_DIRECTORY: pebble.directoryUrl,
    DNS_SERVERS: dns.dnsServer,
    SSL_KEY_SECRET: "an-ssl-key-secret-for-the-tests-0123456789",
  });
  nodeId = (await createTestNode(t)).node_id;
});
afterAll(async () => {
  await t?.close();
  await pebble?.stop();
  await dns?.stop();
  site?.close();
});

/** A customer holding a verified domain: added, its records created on the test DNS server, verified. */
async function customerWithDomain(domain = `site${++seq}-${process.pid}.example.test`) {
  const u = await t.register();
  const added = await t.api<DomainView>("POST", "/user/domain", { token: u.token, body: { domain, node_id: nodeId } });
  expect(added.body.code).toBe("SUCCESS");
  for (const r of added.body.data.records) {
    if (r.type === "TXT") await dns.setTxt(r.host, r.value);
    if (r.type === "CNAME") await dns.setCname(r.host, r.value);
  }
  const verified = await t.api<DomainVerifyResult>("POST", "/user/domain/verify", {
    token: u.token,
    body: { id: added.body.data.id },
  });
  expect(verified.body.data.ok).toBe(true);
  return { ...u, domain };
}

const startOrder = (u: { token: string; domain: string }, challenge: "dns-01" | "http-01") =>
  t
    .api<SslOrderView>("POST", "/user/ssl/order", { token: u.token, body: { domain: u.domain, challenge } })
    .then((r) => r.body.data);

async function download(token: string, id: number, part: string) {
  const res = await t.app.inject({
    method: "GET",
    url: `/api/user/ssl/${id}/download?part=${part}`,
    headers: { authorization: `Bearer ${token}` },
  });
  return res;
}

const overview = async (token: string) => (await t.api<SslOverview>("GET", "/user/ssl", { token })).body.data;

describe("uploaded certificates", () => {
  it("stores a valid chain + key for a verified domain, shows it and hands each part back", async () => {
    const u = await customerWithDomain();
    const chain = await makeChain([u.domain]);
    const r = await t.api<SslCertView>("POST", "/user/ssl", {
      token: u.token,
      body: {
        domain: u.domain.toUpperCase(),
        certificate: chain.leaf.pem + chain.intermediate.pem,
        private_key: chain.leaf.keyPem,
      },
    });
    expect(r.status).toBe(200);
    const cert = r.body.data;
    expect(cert).toMatchObject({
      domain: u.domain,
      source: "upload",
      names: [u.domain],
      issuer: "Burrow Test Intermediate",
      has_chain: true,
    });
    expect(cert.days_left).toBeGreaterThanOrEqual(88);
    const o = await overview(u.token);
    expect(o.certificates.map((c) => c.id)).toEqual([cert.id]);
    expect(o.domains).toEqual([u.domain]);
    expect(o.acme).toMatchObject({ directory: pebble.directoryUrl, staging: false });

    expect((await download(u.token, cert.id, "cert")).body).toBe(chain.leaf.pem);
    expect((await download(u.token, cert.id, "chain")).body).toBe(chain.intermediate.pem);
    const full = await download(u.token, cert.id, "fullchain");
    expect(full.body).toBe(chain.leaf.pem + chain.intermediate.pem);
    expect(full.headers["content-disposition"]).toBe(`attachment; filename="${u.domain}-fullchain.pem"`);
    expect(full.headers["cache-control"]).toBe("private, no-store");
    const key = await download(u.token, cert.id, "key");
    expect(key.body).toBe(chain.leaf.keyPem);

    // At rest the key is AES-256-GCM ciphertext bound to its owner and domain.
    const row = await t.db
      .selectFrom("ssl_certificates")
      .selectAll()
      .where("id", "=", cert.id)
      .executeTakeFirstOrThrow();
    expect(row.key_enc).toMatch(/^v1\./);
    expect(row.key_enc).not.toContain("PRIVATE");
    expect(Buffer.from(row.key_enc.split(".")[3], "base64url").toString("latin1")).not.toContain("PRIVATE");
    await expect(openKey(t.ctx, row.key_enc, `cert:${u.uid}:other.example.test`)).rejects.toThrow();
  });

  it("replaces the domain's certificate in place on a new upload, and deletes it", async () => {
    const u = await customerWithDomain();
    const first = await makeChain([u.domain]);
    const a = await t.api<SslCertView>("POST", "/user/ssl", {
      token: u.token,
      body: { domain: u.domain, certificate: first.leaf.pem, private_key: first.leaf.keyPem },
    });
    expect(a.body.data.has_chain).toBe(false);
    expect((await download(u.token, a.body.data.id, "chain")).json()).toMatchObject({
      msg: "这张证书没有中间证书（证书链为空）",
    });
    const second = await makeChain([u.domain, `*.${u.domain}`]);
    const b = await t.api<SslCertView>("POST", "/user/ssl", {
      token: u.token,
      body: {
        domain: u.domain,
        certificate: second.leaf.pem + second.intermediate.pem,
        private_key: second.leaf.keyPem,
      },
    });
    expect(b.body.data.id).toBe(a.body.data.id);
    expect(b.body.data.names).toEqual([u.domain, `*.${u.domain}`]);
    expect((await overview(u.token)).certificates).toHaveLength(1);
    expect((await t.api("DELETE", `/user/ssl/${a.body.data.id}`, { token: u.token })).status).toBe(200);
    expect((await overview(u.token)).certificates).toEqual([]);
    expect((await download(u.token, a.body.data.id, "cert")).statusCode).toBe(404);
  });

  it("answers each validation failure as 400 naming the field, storing nothing", async () => {
    const u = await customerWithDomain();
    const chain = await makeChain([u.domain]);
    const other = await makeChain([u.domain]);
    const expired = await makeChain([u.domain], {
      notBefore: new Date(Date.now() - 90 * DAY),
      notAfter: new Date(Date.now() - DAY),
    });
    const cases: [Record<string, string>, string, RegExp][] = [
      [{ certificate: chain.leaf.pem, private_key: other.leaf.keyPem }, "private_key", /私钥与证书不匹配/],
      [
        { certificate: chain.intermediate.pem + chain.leaf.pem, private_key: chain.leaf.keyPem },
        "private_key",
        /私钥属于第 2 张证书/,
      ],
      [
        { certificate: chain.leaf.pem + chain.root.pem, private_key: chain.leaf.keyPem },
        "certificate",
        /证书链顺序不正确/,
      ],
      [{ certificate: expired.leaf.pem, private_key: expired.leaf.keyPem }, "certificate", /证书已过期/],
      [{ certificate: "garbage", private_key: chain.leaf.keyPem }, "certificate", /不是 PEM 格式的证书/],
      [{ certificate: chain.leaf.pem, private_key: "" }, "private_key", /请粘贴私钥/],
    ];
    for (const [body, field, msg] of cases) {
      const r = await t.api("POST", "/user/ssl", { token: u.token, body: { domain: u.domain, ...body } });
      expect(r.status, field).toBe(400);
      expect(r.body.code).toBe(10000);
      expect(r.body.msg).toMatch(new RegExp(`^${field}: `));
      expect(r.body.msg).toMatch(msg);
    }
    const wrongName = await makeChain(["www.elsewhere.test"]);
    const r = await t.api("POST", "/user/ssl", {
      token: u.token,
      body: { domain: u.domain, certificate: wrongName.leaf.pem, private_key: wrongName.leaf.keyPem },
    });
    expect(r.body.msg).toBe(`certificate: 证书不包含域名 ${u.domain}（证书包含：www.elsewhere.test）`);
    expect((await overview(u.token)).certificates).toEqual([]);
  });

  it("only for the customer's own verified domains; another customer's rows are not found", async () => {
    const a = await customerWithDomain();
    const b = await customerWithDomain();
    const chain = await makeChain([a.domain]);
    const body = { domain: a.domain, certificate: chain.leaf.pem, private_key: chain.leaf.keyPem };
    const refused = await t.api("POST", "/user/ssl", { token: b.token, body });
    expect(refused.status).toBe(400);
    expect(refused.body.msg).toBe(`domain: ${a.domain} 不是你已验证的域名，请先在“域名”页添加并完成验证`);
    const unknown = await t.api("POST", "/user/ssl", {
      token: b.token,
      body: { ...body, domain: "nobody.example.test" },
    });
    expect(unknown.status).toBe(400);
    expect((await t.api("POST", "/user/ssl", { token: b.token, body: { ...body, domain: "*.x.test" } })).status).toBe(
      400,
    );

    const mine = (await t.api<SslCertView>("POST", "/user/ssl", { token: a.token, body })).body.data;
    for (const part of ["cert", "key", "chain", "fullchain"])
      expect((await download(b.token, mine.id, part)).statusCode).toBe(404);
    expect((await t.api("DELETE", `/user/ssl/${mine.id}`, { token: b.token })).status).toBe(404);
    expect((await overview(b.token)).certificates).toEqual([]);
    expect((await download(a.token, mine.id, "bogus")).statusCode).toBe(400);
    // Anonymous callers get nothing.
    expect((await t.app.inject({ method: "GET", url: `/api/user/ssl/${mine.id}/download?part=key` })).statusCode).toBe(
      401,
    );
  });
});

describe("ACME issues against pebble", () => {
  it("DNS-01: shows the TXT record, waits for it, then issues a real certificate from the CA", async () => {
    const u = await customerWithDomain();
    const start = await t.api<SslOrderView>("POST", "/user/ssl/order", {
      token: u.token,
      body: { domain: u.domain, challenge: "dns-01" },
    });
    expect(start.status).toBe(200);
    const order = start.body.data;
    expect(order).toMatchObject({ step: "waiting", challenge: "dns-01", renewal: false });
    expect(order.record?.name).toBe(`_acme-challenge.${u.domain}`);
    expect(order.record?.value).toMatch(/^[A-Za-z0-9_-]{43}$/);

    // A second issue for the domain waits for this one.
    const dup = await t.api("POST", "/user/ssl/order", {
      token: u.token,
      body: { domain: u.domain, challenge: "dns-01" },
    });
    expect(dup.status).toBe(409);
    expect(dup.body.code).toBe(40008);

    // No record yet: the check says so and schedules the next look-up.
    const early = await t.api<SslOrderView>("POST", `/user/ssl/order/${order.id}/check`, { token: u.token });
    expect(early.body.data.step).toBe("waiting");
    expect(early.body.data.message).toMatch(/尚未检测到正确的 TXT 记录 _acme-challenge\..*没有查到任何 TXT 记录/);
    await dns.setTxt(`_acme-challenge.${u.domain}`, "wrong-value");
    await t.db
      .updateTable("ssl_orders")
      .set({ next_check_at: new Date(0).toISOString() })
      .where("id", "=", order.id)
      .execute();
    await advanceDueIssues(t.ctx);
    expect(
      (await t.api<SslOrderView>("GET", `/user/ssl/order/${order.id}`, { token: u.token })).body.data.message,
    ).toMatch(/查到的值：wrong-value/);

    // The record appears; the job's next run takes it all the way.
    await dns.setTxt(`_acme-challenge.${u.domain}`, order.record?.value ?? "");
    await t.db
      .updateTable("ssl_orders")
      .set({ next_check_at: new Date(0).toISOString() })
      .where("id", "=", order.id)
      .execute();
    await advanceDueIssues(t.ctx);
    const done = (await t.api<SslOrderView>("GET", `/user/ssl/order/${order.id}`, { token: u.token })).body.data;
    expect(done.step).toBe("issued");
    expect(done.record).toBeNull();
    expect(done.history.map((h) => h.step)).toEqual(["waiting", "validating", "finalizing", "issued"]);
    const cert = (await overview(u.token)).certificates[0];
    expect(cert).toMatchObject({ domain: u.domain, source: "acme", names: [u.domain], has_chain: true });
    expect(cert.issuer).toMatch(/^Pebble Intermediate CA/);
    expect(done.cert_id).toBe(cert.id);

    // The full chain is the CA's: leaf ← intermediate ← pebble's root; the key is the leaf's.
    const full = (await download(u.token, cert.id, "fullchain")).body;
    const [leaf, intermediate] = full.split(/(?<=-----END CERTIFICATE-----\n)/).map((p) => new X509Certificate(p));
    const root = new X509Certificate(await pebble.issuingRoot());
    expect(leaf.verify(intermediate.publicKey)).toBe(true);
    expect(intermediate.verify(root.publicKey)).toBe(true);
    expect(leaf.checkHost(u.domain)).toBe(u.domain);
    const { createPrivateKey } = await import("node:crypto");
    expect(leaf.checkPrivateKey(createPrivateKey((await download(u.token, cert.id, "key")).body))).toBe(true);
    await dns.clearTxt(`_acme-challenge.${u.domain}`);
  });

  it("HTTP-01: waits for the customer's go, then the CA fetches the file from the site", async () => {
    const u = await customerWithDomain();
    const order = await startOrder(u, "http-01");
    expect(order.step).toBe("waiting");
    expect(order.next_check_at).toBeNull();
    const url = new URL(order.record?.name ?? "");
    expect(url.href).toMatch(
      new RegExp(`^http://${u.domain.replace(/\./g, "\\.")}/\\.well-known/acme-challenge/[A-Za-z0-9_-]+$`),
    );
    // The job never submits an HTTP-01 challenge on its own (a failed validation cannot be retried).
    await advanceDueIssues(t.ctx);
    expect((await t.api<SslOrderView>("GET", `/user/ssl/order/${order.id}`, { token: u.token })).body.data.step).toBe(
      "waiting",
    );
    siteFiles.set(url.pathname, order.record?.value ?? "");
    const done = (await t.api<SslOrderView>("POST", `/user/ssl/order/${order.id}/check`, { token: u.token })).body.data;
    expect(done.step).toBe("issued");
    expect((await overview(u.token)).certificates[0]).toMatchObject({ domain: u.domain, source: "acme" });
  });

  it("a failed validation ends the issue with the CA's reason; cancel ends a waiting one", async () => {
    const u = await customerWithDomain();
    const order = await startOrder(u, "http-01");
    const failed = (await t.api<SslOrderView>("POST", `/user/ssl/order/${order.id}/check`, { token: u.token })).body
      .data;
    expect(failed.step).toBe("failed");
    expect(failed.message).toMatch(/^证书颁发机构验证失败：/);
    expect((await t.api("POST", `/user/ssl/order/${order.id}/check`, { token: u.token })).status).toBe(403);

    const again = await startOrder(u, "dns-01");
    const other = await customerWithDomain();
    expect((await t.api("GET", `/user/ssl/order/${again.id}`, { token: other.token })).status).toBe(404);
    expect((await t.api("POST", `/user/ssl/order/${again.id}/cancel`, { token: other.token })).status).toBe(404);
    expect((await t.api("POST", `/user/ssl/order/${again.id}/check`, { token: other.token })).status).toBe(404);
    const cancelled = (await t.api<SslOrderView>("POST", `/user/ssl/order/${again.id}/cancel`, { token: u.token })).body
      .data;
    expect(cancelled.step).toBe("cancelled");
    expect((await t.api("POST", `/user/ssl/order/${again.id}/cancel`, { token: u.token })).status).toBe(403);
    expect((await overview(u.token)).orders.map((o) => o.step)).toEqual(["cancelled", "failed"]);
  });

  it("refuses an issue for a domain that is not the customer's verified one", async () => {
    const u = await customerWithDomain();
    const r = await t.api("POST", "/user/ssl/order", {
      token: u.token,
      body: { domain: "nobody.example.test", challenge: "dns-01" },
    });
    expect(r.status).toBe(400);
    expect(r.body.msg).toMatch(/^domain: /);
    const bad = await t.api("POST", "/user/ssl/order", {
      token: u.token,
      body: { domain: u.domain, challenge: "tls-alpn-01" },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.msg).toMatch(/^challenge: /);
  });

  it("spares the shared ACME account: a few orders an hour per customer, none while one for the name is open", async () => {
    const u = await customerWithDomain();
    let made = 0;
    let last: { status: number; body: { code: unknown } } = { status: 0, body: { code: "" } };
    for (let i = 0; i < 12; i++) {
      const r = await t.api<SslOrderView>("POST", "/user/ssl/order", {
        token: u.token,
        body: { domain: u.domain, challenge: "dns-01" },
      });
      last = r;
      if (r.body.code !== "SUCCESS") break;
      made++;
      // An open issue blocks a second before any order is made at the CA.
      const dup = await t.api("POST", "/user/ssl/order", {
        token: u.token,
        body: { domain: u.domain, challenge: "dns-01" },
      });
      expect(dup.body.code).toBe(40008);
      await t.api("POST", `/user/ssl/order/${r.body.data.id}/cancel`, { token: u.token });
    }
    expect(made).toBeLessThanOrEqual(10);
    expect([last.status, last.body.code]).toEqual([429, 2029]);
    const orders = await t.db.selectFrom("ssl_orders").select("id").where("uid", "=", u.uid).execute();
    expect(orders.length).toBe(made);
  });

  it("renews an ACME certificate 30 days before expiry, telling the customer what to update and when it is done", async () => {
    const u = await customerWithDomain();
    const order = await startOrder(u, "dns-01");
    await dns.setTxt(`_acme-challenge.${u.domain}`, order.record?.value ?? "");
    await t.api("POST", `/user/ssl/order/${order.id}/check`, { token: u.token });
    const cert = (await overview(u.token)).certificates[0];
    expect(cert.source).toBe("acme");

    // Not due yet: nothing happens.
    expect(await renewDueCertificates(t.ctx)).toBe(0);
    const soon = new Date(Date.now() + 20 * DAY);
    expect(await renewDueCertificates(t.ctx, new Date(new Date(cert.not_after).getTime() - 31 * DAY))).toBe(0);
    await t.db
      .updateTable("ssl_certificates")
      .set({ not_after: soon.toISOString() })
      .where("id", "=", cert.id)
      .execute();
    expect(await renewDueCertificates(t.ctx)).toBe(1);
    const o1 = await overview(u.token);
    const renewal = o1.orders.find((o) => o.renewal);
    // A CA may reuse the account's still-valid authorization of the domain (Let's Encrypt does for
    // 30 days): the renewal then needs no new record and finishes at once. Pebble did so once in CI
    // despite PEBBLE_AUTHZREUSE=0 (cause not pinned down); both ways must end renewed.
    const reused = renewal?.step === "issued";
    if (!reused) {
      expect(renewal).toMatchObject({ step: "waiting", cert_id: cert.id, challenge: "dns-01" });
      expect(o1.certificates[0].notice).toBe(
        `证书即将到期，已开始自动续期：请把 TXT 记录 _acme-challenge.${u.domain} 的值改为 ${renewal?.record?.value}，生效后自动完成`,
      );
    }
    // Once a day at most, and never two at once.
    expect(await renewDueCertificates(t.ctx)).toBe(0);

    if (!reused) await dns.setTxt(`_acme-challenge.${u.domain}`, renewal?.record?.value ?? "");
    await advanceDueIssues(t.ctx);
    const o2 = await overview(u.token);
    expect(o2.orders.find((o) => o.id === renewal?.id)?.step).toBe("issued");
    expect(o2.certificates).toHaveLength(1);
    expect(o2.certificates[0].id).toBe(cert.id);
    expect(new Date(o2.certificates[0].not_after).getTime()).toBeGreaterThan(soon.getTime());
    expect(o2.certificates[0].fingerprint).not.toBe(cert.fingerprint);
    expect(o2.certificates[0].notice).toMatch(
      /^已于 \d{4}-\d\d-\d\d 自动续期，新证书到期时间 \d{4}-\d\d-\d\d；请重新下载证书/,
    );
    await dns.clearTxt(`_acme-challenge.${u.domain}`);
  });

  it("does not renew uploaded certificates, and says why it cannot renew a domain no longer verified", async () => {
    const u = await customerWithDomain();
    const chain = await makeChain([u.domain], { notAfter: new Date(Date.now() + 10 * DAY) });
    const up = (
      await t.api<SslCertView>("POST", "/user/ssl", {
        token: u.token,
        body: { domain: u.domain, certificate: chain.leaf.pem, private_key: chain.leaf.keyPem },
      })
    ).body.data;
    await renewDueCertificates(t.ctx);
    expect((await overview(u.token)).orders).toEqual([]);
    await t.db.updateTable("ssl_certificates").set({ source: "acme" }).where("id", "=", up.id).execute();
    await t.db
      .updateTable("domains")
      .set({ status: "pending", verified_domain: null })
      .where("uid", "=", u.uid)
      .execute();
    expect(await renewDueCertificates(t.ctx)).toBe(0);
    const c = (await overview(u.token)).certificates[0];
    expect(c.notice).toMatch(/但域名已不再是已验证状态，无法自动续期$/);
  });
});

describe("frpc config for https tunnels", () => {
  it("offers the https2http plugin with the certificate's files when the custom domain has a certificate", async () => {
    const u = await customerWithDomain();
    await setPlan(t, u.uid);
    const tun = await createTestTunnel(t, u.token, {
      node_id: nodeId,
      protocol: "https",
      local_port: 8443,
      custom_domains: [u.domain],
    });
    const config = async () =>
      (await t.api<TunnelConfig>("GET", "/user/tun/config", { token: u.token, query: { tun_id: tun.tun_id } })).body
        .data.toml;
    expect(await config()).not.toContain("[proxies.plugin]");
    const chain = await makeChain([u.domain]);
    await t.api("POST", "/user/ssl", {
      token: u.token,
      body: { domain: u.domain, certificate: chain.leaf.pem, private_key: chain.leaf.keyPem },
    });
    const toml = await config();
    expect(toml).toContain(
      [
        "[proxies.plugin]",
        'type = "https2http"',
        'localAddr = "127.0.0.1:8443"',
        `crtPath = "./certs/${u.domain}/fullchain.pem"`,
        `keyPath = "./certs/${u.domain}/privkey.pem"`,
      ].join("\n"),
    );
    // Keys of the proxy come before its plugin sub-table.
    expect(toml.indexOf("metadatas.tunnel_id")).toBeLessThan(toml.indexOf("[proxies.plugin]"));
  });
});

describe("keys at rest", () => {
  it("without SSL_KEY_SECRET: generated once outside production, refused in production", async () => {
    const fake = { config: { NODE_ENV: "production" }, db: t.db } as unknown as typeof t.ctx;
    await expect(sealKey(fake, "x", "p")).rejects.toThrow(/SSL_KEY_SECRET/);
    const dev = { config: { NODE_ENV: "development" }, db: t.db } as unknown as typeof t.ctx;
    const sealed = await sealKey(dev, "secret key", "p");
    expect(await openKey(dev, sealed, "p")).toBe("secret key");
    const stored = await t.db
      .selectFrom("settings")
      .select("value")
      .where("key", "=", "ssl_key_secret")
      .executeTakeFirst();
    expect(stored?.value.length).toBeGreaterThanOrEqual(32);
    // Another secret cannot read it; a flipped byte is detected.
    await expect(openKey(t.ctx, sealed, "p")).rejects.toThrow();
    const parts = sealed.split(".");
    parts[3] = Buffer.from(Buffer.from(parts[3], "base64url").map((b, i) => (i === 0 ? b ^ 1 : b))).toString(
      "base64url",
    );
    await expect(openKey(dev, parts.join("."), "p")).rejects.toThrow();
  });
});
