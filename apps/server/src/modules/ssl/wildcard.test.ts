import type { DomainVerifyResult, DomainView, SslCertView, SslOrderView, TunnelConfig } from "@burrow/contract";
import { beforeAll, describe, expect, it } from "vitest";
import { makeChain } from "../../../test/certs";
import type { TestDnsServer } from "../../../test/dns-server";
import { createTestTunnel, setPlan } from "../../../test/frp-fixtures";
import type { TestApp } from "../../../test/harness";
import { sslSuite } from "../../../test/ssl-fixtures";

/* Certificates for a wildcard custom domain (`*.<apex>`): uploaded, or issued by pebble through DNS-01 only. */

const suite = sslSuite();
const { overview, checkNow } = suite;
let t: TestApp;
let dns: TestDnsServer;
beforeAll(() => {
  ({ t, dns } = suite.get());
});

let seq = 0;
/** A customer holding `*.<apex>`: the apex's TXT and the probe's CNAME published, verified. */
async function customerWithWildcard() {
  const { nodeId } = suite.get();
  const apex = `wild${++seq}-${process.pid}.example.test`;
  const u = await t.register();
  const added = await t.api<DomainView>("POST", "/user/domain", {
    token: u.token,
    body: { domain: `*.${apex}`, node_id: nodeId },
  });
  expect(added.body.code).toBe("SUCCESS");
  const [txt, target] = added.body.data.records;
  await dns.setTxt(txt.host, txt.value);
  await dns.setCname(`_burrow-probe.${apex}`, target.value);
  const v = await t.api<DomainVerifyResult>("POST", "/user/domain/verify", {
    token: u.token,
    body: { id: added.body.data.id },
  });
  expect(v.body.data.ok).toBe(true);
  return { ...u, apex, domain: `*.${apex}` };
}

describe("wildcard certificates", () => {
  it("takes an uploaded wildcard certificate for a held wildcard, and refuses one that does not cover it", async () => {
    const u = await customerWithWildcard();
    const narrow = await makeChain([`www.${u.apex}`]);
    const bad = await t.api("POST", "/user/ssl", {
      token: u.token,
      body: { domain: u.domain, certificate: narrow.leaf.pem, private_key: narrow.leaf.keyPem },
    });
    expect([bad.status, bad.body.msg]).toEqual([400, expect.stringMatching(/^certificate: /)]);
    const chain = await makeChain([u.domain]);
    const r = await t.api<SslCertView>("POST", "/user/ssl", {
      token: u.token,
      body: { domain: u.domain, certificate: chain.leaf.pem + chain.intermediate.pem, private_key: chain.leaf.keyPem },
    });
    expect(r.status).toBe(200);
    expect(r.body.data).toMatchObject({ domain: u.domain, names: [u.domain] });
    // A customer not holding the wildcard cannot store one for it.
    const other = await t.register();
    const theirs = await t.api("POST", "/user/ssl", {
      token: other.token,
      body: { domain: u.domain, certificate: chain.leaf.pem, private_key: chain.leaf.keyPem },
    });
    expect([theirs.status, theirs.body.msg]).toEqual([400, expect.stringMatching(/^domain: /)]);
  });

  it("issues through DNS-01 on the apex's _acme-challenge record, and refuses HTTP-01 naming the field", async () => {
    const u = await customerWithWildcard();
    const http = await t.api("POST", "/user/ssl/order", {
      token: u.token,
      body: { domain: u.domain, challenge: "http-01" },
    });
    expect([http.status, http.body.code]).toEqual([400, 10000]);
    expect(http.body.msg).toBe(`challenge: 泛域名 ${u.domain} 的证书只能通过 DNS 验证（dns-01）签发`);
    expect((await overview(u.token)).orders).toEqual([]);

    const start = await t.api<SslOrderView>("POST", "/user/ssl/order", {
      token: u.token,
      body: { domain: u.domain, challenge: "dns-01" },
    });
    expect(start.status).toBe(200);
    const order = start.body.data;
    expect(order.record?.name).toBe(`_acme-challenge.${u.apex}`);
    await dns.setTxt(`_acme-challenge.${u.apex}`, order.record?.value ?? "");
    await checkNow(order.id);
    const done = (await t.api<SslOrderView>("GET", `/user/ssl/order/${order.id}`, { token: u.token })).body.data;
    expect(done.step).toBe("issued");
    const cert = (await overview(u.token)).certificates[0];
    expect(cert).toMatchObject({ domain: u.domain, source: "acme", names: [u.domain] });
  });

  it("serves https tunnels on the wildcard and on a name under it with the wildcard's certificate, in a file-safe folder", async () => {
    const u = await customerWithWildcard();
    await setPlan(t, u.uid, { tunnel_peer_port_limit: 2 });
    const chain = await makeChain([u.domain]);
    await t.api("POST", "/user/ssl", {
      token: u.token,
      body: { domain: u.domain, certificate: chain.leaf.pem, private_key: chain.leaf.keyPem },
    });
    const tun = await createTestTunnel(t, u.token, {
      node_id: suite.get().nodeId,
      protocol: "https",
      local_port: 8443,
      custom_domains: [`www.${u.apex}`],
    });
    const toml = (
      await t.api<TunnelConfig>("GET", "/user/tun/config", { token: u.token, query: { tun_id: tun.tun_id } })
    ).body.data.toml;
    // `*` cannot be in a Windows file name.
    expect(toml).toContain(`crtPath = "./certs/_wildcard.${u.apex}/fullchain.pem"`);
    expect(toml).toContain(`keyPath = "./certs/_wildcard.${u.apex}/privkey.pem"`);
    const cert = (await overview(u.token)).certificates[0];
    const file = await suite.download(u.token, cert.id, "fullchain");
    expect(file.headers["content-disposition"]).toBe(`attachment; filename="_wildcard.${u.apex}-fullchain.pem"`);
  });
});
