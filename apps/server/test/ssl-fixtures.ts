import http from "node:http";
import type { DomainVerifyResult, DomainView, SslOrderView, SslOverview } from "@burrow/contract";
import * as acme from "acme-client";
import { afterAll, beforeAll, expect } from "vitest";
import { advanceDueIssues } from "../src/modules/ssl/acme-steps";
import { type AcmeServer, startAcmeServer } from "./acme-server";
import { startDnsServer, type TestDnsServer } from "./dns-server";
import { createTestNode } from "./frp-fixtures";
import { createTestApp, type TestApp } from "./harness";

let seq = 0;

/**
 * The set-up of the SSL module's suites: a test DNS server, pebble (a real ACME CA) trusted by this
 * process only, a web server standing in for the customer's site behind its http tunnel (HTTP-01
 * files in `siteFiles`), the app pointed at them and one node. `get()` gives them once the file's
 * beforeAll ran.
 */
export function sslSuite() {
  const siteFiles = new Map<string, string>();
  const s = {
    t: undefined as unknown as TestApp,
    dns: undefined as unknown as TestDnsServer,
    pebble: undefined as unknown as AcmeServer,
    nodeId: 0,
    siteFiles,
  };
  let site: http.Server | undefined;
  beforeAll(async () => {
    s.dns = await startDnsServer();
    s.pebble = await startAcmeServer({ dnsServer: s.dns.dnsServer });
    acme.axios.defaults.httpsAgent = s.pebble.agent;
    site = http.createServer((req, res) => {
      const body = siteFiles.get(req.url ?? "");
      res.writeHead(body ? 200 : 404, { "content-type": "text/plain" }).end(body ?? "not found");
    });
    await new Promise<void>((r) => site?.listen(s.pebble.httpPort, "127.0.0.1", r));
    s.t = await createTestApp({
      ACME_DIRECTORY: s.pebble.directoryUrl,
      DNS_SERVERS: s.dns.dnsServer,
      SSL_KEY_SECRET: "an-ssl-key-secret-for-the-tests-0123456789",
    });
    s.nodeId = (await createTestNode(s.t)).node_id;
  });
  afterAll(async () => {
    await s.t?.close();
    await s.pebble?.stop();
    await s.dns?.stop();
    site?.close();
  });

  return {
    get: () => s,
    /** A customer holding a verified domain: added, its records created on the test DNS server, verified. */
    async customerWithDomain(domain = `site${++seq}-${process.pid}.example.test`) {
      const { t, dns, nodeId } = s;
      const u = await t.register();
      const added = await t.api<DomainView>("POST", "/user/domain", {
        token: u.token,
        body: { domain, node_id: nodeId },
      });
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
    },
    startOrder: (u: { token: string; domain: string }, challenge: "dns-01" | "http-01") =>
      s.t
        .api<SslOrderView>("POST", "/user/ssl/order", { token: u.token, body: { domain: u.domain, challenge } })
        .then((r) => r.body.data),
    /** The issue job's next run with the order's next look-up due now (not waiting out its back-off). */
    async checkNow(orderId: number) {
      await s.t.db
        .updateTable("ssl_orders")
        .set({ next_check_at: new Date(0).toISOString() })
        .where("id", "=", orderId)
        .execute();
      await advanceDueIssues(s.t.ctx);
    },
    /** GET a certificate's part as the browser does (the raw reply: headers and bytes). */
    download: (token: string, id: number, part: string) =>
      s.t.app.inject({
        method: "GET",
        url: `/api/user/ssl/${id}/download?part=${part}`,
        headers: { authorization: `Bearer ${token}` },
      }),
    overview: async (token: string) => (await s.t.api<SslOverview>("GET", "/user/ssl", { token })).body.data,
  };
}
