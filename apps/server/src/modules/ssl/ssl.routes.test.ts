import type { SslCertView, TunnelConfig } from "@burrow/contract";
import { beforeAll, describe, expect, it } from "vitest";
import type { AcmeServer } from "../../../test/acme-server";
import { DAY, makeChain } from "../../../test/certs";
import { createTestTunnel, setPlan } from "../../../test/frp-fixtures";
import type { TestApp } from "../../../test/harness";
import { sslSuite } from "../../../test/ssl-fixtures";
import { openKey, sealKey } from "./secret";

/* Uploaded certificates, the frpc config that uses them, and keys at rest. */

const suite = sslSuite();
const { customerWithDomain, download, overview } = suite;
let t: TestApp;
let pebble: AcmeServer;
let nodeId: number;
beforeAll(() => {
  ({ t, pebble, nodeId } = suite.get());
});

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
