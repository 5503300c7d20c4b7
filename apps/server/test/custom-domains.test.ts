import type { TunnelView } from "@burrow/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDomains } from "./domain-fixtures";
import { createTestNode, registerWithPlan } from "./frp-fixtures";
import { createTestApp, type TestApp } from "./harness";

/**
 * Custom domains claimed across customers (issue 19 §5): one canonical form (lower case, punycode,
 * no trailing dot, no spaces) is stored and compared; wildcards, homographs and the provider's
 * own names are refused with 400 on `custom_domains`, and nothing is written.
 */
let t: TestApp;
let nodeId: number;
let otherNodeId: number;
beforeAll(async () => {
  t = await createTestApp({ PUBLIC_URL: "https://console.burrow.example" });
  // Tunnel mechanics, not domain ownership (modules/domains tests that).
  openDomains(t);
  nodeId = (await createTestNode(t, { host: "n1.burrow.example", subdomain_host: "frp.burrow.example" })).node_id;
  otherNodeId = (await createTestNode(t, { host: "203.0.113.9", subdomain_host: "edge2.burrow.example" })).node_id;
});
afterAll(() => t.close());

const customer = () => registerWithPlan(t, { tunnel_limit: 10, tunnel_peer_port_limit: 5 });

let seq = 0;
const web = (token: string, custom_domains: string[], node = nodeId) =>
  t.api<TunnelView>("POST", "/user/tun", {
    token,
    body: { tun_name: `web${++seq}`, protocol: "http", local_port: 80, node_id: node, custom_domains },
  });

const domainsOn = async (node: number) =>
  (await t.db.selectFrom("tunnel_domains").select("domain").where("node_id", "=", node).execute())
    .map((r) => r.domain)
    .sort();

/** 400 / 10000 naming custom_domains (or its item), and no tunnel written. */
async function expectRefused(token: string, domains: string[], msg?: RegExp) {
  const before = await t.db.selectFrom("tunnels").select("tun_id").execute();
  const r = await web(token, domains);
  // The schema names the item ("custom_domains.0"), the rules that need the database the list.
  const field = (r.body.data as { field?: string } | null)?.field?.replace(/\.\d+$/, "");
  expect([domains, r.status, r.body.code, field]).toEqual([domains, 400, 10000, "custom_domains"]);
  if (msg) expect(r.body.msg).toMatch(msg);
  expect(await t.db.selectFrom("tunnels").select("tun_id").execute()).toHaveLength(before.length);
}

describe("one canonical form per domain", () => {
  it("stores spaces, case and a trailing dot away, and another customer's spelling of it is taken", async () => {
    const a = await customer();
    const b = await customer();
    const r = await web(a.token, ["  Shop.Example.COM. "]);
    expect(r.body.code).toBe("SUCCESS");
    expect(r.body.data.custom_domains).toEqual(["shop.example.com"]);
    for (const spelling of [
      "shop.example.com",
      "SHOP.EXAMPLE.COM",
      "shop.example.com.",
      "ｓｈｏｐ.example.com",
      "shop。example。com",
    ]) {
      const dup = await web(b.token, [spelling]);
      expect([spelling, dup.status, dup.body.code]).toEqual([spelling, 409, 40001]);
    }
    // The same spellings within one tunnel are one domain.
    const twice = await web(b.token, ["two.example.com", "TWO.example.com."]);
    expect(twice.body.code).toBe(10000);
    expect(twice.body.msg).toMatch(/重复/);
  });

  it("stores an internationalised name in punycode, and its punycode spelling is the same claim", async () => {
    const a = await customer();
    const b = await customer();
    const r = await web(a.token, ["Bücher.Example.de"]);
    expect(r.body.code).toBe("SUCCESS");
    expect(r.body.data.custom_domains).toEqual(["xn--bcher-kva.example.de"]);
    expect((await web(b.token, ["xn--bcher-kva.example.de"])).body.code).toBe(40001);
    expect((await web(b.token, ["BÜCHER.example.de."])).body.code).toBe(40001);
    // The frpc config carries the ASCII name that browsers send in Host.
    const cfg = await t.api<string>("GET", "/user/tun/config", {
      token: a.token,
      query: { tun_id: r.body.data.tun_id },
    });
    expect(JSON.stringify(cfg.body.data)).toContain("xn--bcher-kva.example.de");
  });

  it("an edit is held to the same form and checks", async () => {
    const a = await customer();
    const b = await customer();
    const mine = await web(a.token, ["edit-a.example.com"]);
    const theirs = await web(b.token, ["edit-b.example.com"]);
    const taken = await t.api("PATCH", "/user/tun", {
      token: b.token,
      body: { tun_id: theirs.body.data.tun_id, custom_domains: ["EDIT-A.example.com."] },
    });
    expect(taken.body.code).toBe(40001);
    const wild = await t.api("PATCH", "/user/tun", {
      token: b.token,
      body: { tun_id: theirs.body.data.tun_id, custom_domains: ["*.*.example.com"] },
    });
    expect([wild.status, wild.body.code]).toEqual([400, 10000]);
    const homograph = await t.api("PATCH", "/user/tun", {
      token: b.token,
      body: { tun_id: theirs.body.data.tun_id, custom_domains: ["еdit-a.example.com"] },
    });
    expect([homograph.status, homograph.body.code]).toEqual([400, 10000]);
    expect(await domainsOn(nodeId)).toContain("edit-b.example.com");
    expect(mine.body.data.custom_domains).toEqual(["edit-a.example.com"]);
  });
});

describe("wildcards and malformed names", () => {
  // A well-formed *.<apex> is a matter of ownership (modules/domains/wildcard.test.ts, with the real gate).
  it("refuses a malformed wildcard: not leftmost, not a whole label, two of them, over a public suffix", async () => {
    const b = await customer();
    await expectRefused(b.token, ["*"], /泛域名/);
    await expectRefused(b.token, ["*.*.wild.example.com"], /泛域名/);
    await expectRefused(b.token, ["a.*.example.com"], /泛域名/);
    await expectRefused(b.token, ["*wild.example.com"]);
    await expectRefused(b.token, ["*.com"], /顶级域名/);
    await expectRefused(b.token, ["*.com.cn"], /公共后缀/);
    expect((await domainsOn(nodeId)).filter((d) => d.includes("*"))).toEqual([]);
  });

  it("refuses addresses, ports, paths, escapes and single labels", async () => {
    const a = await customer();
    for (const bad of [
      "203.0.113.5",
      "0x7f.1",
      "a.example.com:8080",
      "a.example.com/path",
      "user@a.example.com",
      "a%2eexample.com",
      "localhost",
      "a..example.com",
      "a.example.com..",
      "-a.example.com",
      "a_b.example.com",
      "ex\u200bample.com",
      "",
    ])
      await expectRefused(a.token, [bad]);
  });
});

describe("homographs", () => {
  it("refuses labels mixing alphabets, wholly look-alike labels and look-alike Latin letters, in Unicode or punycode", async () => {
    const a = await customer();
    for (const bad of [
      "аpple.com", // Cyrillic а + Latin
      "xn--pple-43d.com", // the same, already in punycode
      "аррӏе.com", // all Cyrillic, every letter looks Latin
      "xn--80ak6aa92e.com",
      "gοοgle.com", // Greek ο
      "ɡoogle.com", // Latin script ɡ
      "о中文.com", // Cyrillic beside Chinese
    ])
      await expectRefused(a.token, [bad]);
  });

  it("accepts real internationalised names", async () => {
    const a = await customer();
    const r = await web(a.token, ["пример.com", "例子.测试", "straße.de"]);
    expect(r.body.code).toBe("SUCCESS");
    expect(r.body.data.custom_domains).toEqual(["xn--e1afmkfd.com", "xn--fsqu00a.xn--0zwm56d", "xn--strae-oqa.de"]);
  });
});

describe("the provider's own names", () => {
  it("refuses a node's subdomain host, names under any node's, a node's host name and the console's host", async () => {
    const a = await customer();
    for (const bad of [
      "frp.burrow.example",
      "x.FRP.burrow.example.",
      "x.edge2.burrow.example", // another node's subdomain host
      "n1.burrow.example",
      "api.n1.burrow.example",
      "console.burrow.example",
    ])
      await expectRefused(a.token, [bad]);
    // The subdomain field is the way to a name under the node's subdomain host.
    const sub = await t.api<TunnelView>("POST", "/user/tun", {
      token: a.token,
      body: { tun_name: "sub", protocol: "http", local_port: 80, node_id: nodeId, subdomain: "Mine" },
    });
    expect(sub.body.code).toBe("SUCCESS");
    expect(await domainsOn(nodeId)).toContain("mine.frp.burrow.example");
    const b = await customer();
    await expectRefused(b.token, ["mine.frp.burrow.example"]);
    // Nor may a subdomain spell the console's or another node's name (a node whose subdomain
    // host is the provider's apex).
    const apex = (await createTestNode(t, { host: "203.0.113.10", subdomain_host: "burrow.example" })).node_id;
    for (const label of ["console", "n1", "edge2"]) {
      const node = apex;
      const pre = await t.db.selectFrom("tunnels").select("tun_id").execute();
      const reserved = await t.api("POST", "/user/tun", {
        token: a.token,
        body: { tun_name: `sub-${label}`, protocol: "http", local_port: 80, node_id: node, subdomain: label },
      });
      expect([label, reserved.status, reserved.body.code, (reserved.body.data as { field: string }).field]).toEqual([
        label,
        400,
        10000,
        "subdomain",
      ]);
      expect(await t.db.selectFrom("tunnels").select("tun_id").execute()).toHaveLength(pre.length);
    }
    const plain = await t.api("POST", "/user/tun", {
      token: a.token,
      body: { tun_name: "sub-shop", protocol: "http", local_port: 80, node_id: apex, subdomain: "shop" },
    });
    expect(plain.body.code).toBe("SUCCESS");
    // A different node: another customer's subdomain there is still not a custom domain anywhere.
    const r = await web(b.token, ["mine.frp.burrow.example"], otherNodeId);
    expect([r.status, r.body.code]).toEqual([400, 10000]);
  });
});

describe("operator rules see internationalised names", () => {
  it("a keyword rule in Chinese flags a tunnel whose domain carries it (stored in punycode)", async () => {
    const admin = await t.adminToken();
    const rule = await t.api<{ id: number }>("POST", "/super/tun/illegal/rule", {
      token: admin,
      body: { kind: "keyword", value: "赌场" },
    });
    expect(rule.body.code).toBe("SUCCESS");
    const a = await customer();
    const r = await web(a.token, ["在线赌场.example.com"]);
    expect(r.body.code).toBe("SUCCESS");
    expect(r.body.data.custom_domains[0]).toMatch(/^xn--/);
    const flags = await t.api<{ list: { tun_id: number; rule_id: number; reason: string }[] }>(
      "GET",
      "/super/tun/illegal",
      { token: admin, query: { uid: a.uid } },
    );
    expect(flags.body.data.list).toHaveLength(1);
    expect(flags.body.data.list[0]).toMatchObject({ tun_id: r.body.data.tun_id, rule_id: rule.body.data.id });
    expect(flags.body.data.list[0].reason).toContain("在线赌场.example.com");
  });
});
