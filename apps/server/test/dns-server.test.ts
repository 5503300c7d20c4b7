import { Resolver } from "node:dns/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startDnsServer, type TestDnsServer } from "./dns-server";

/** The test DNS server (pebble-challtestsrv) answers what the tests set, over real DNS. */
let dns: TestDnsServer;
let resolver: Resolver;
beforeAll(async () => {
  dns = await startDnsServer();
  resolver = new Resolver({ timeout: 1000, tries: 1 });
  resolver.setServers([dns.dnsServer]);
});
afterAll(() => dns?.stop());

describe("test DNS server", () => {
  it("serves, replaces and clears TXT records", async () => {
    await dns.setTxt("_burrow-challenge.a.example.com", "one");
    await dns.addTxt("_burrow-challenge.a.example.com", "two");
    expect((await resolver.resolveTxt("_burrow-challenge.a.example.com")).flat().sort()).toEqual(["one", "two"]);
    await dns.setTxt("_burrow-challenge.a.example.com", "three");
    expect(await resolver.resolveTxt("_burrow-challenge.a.example.com")).toEqual([["three"]]);
    await dns.clearTxt("_burrow-challenge.a.example.com");
    await expect(resolver.resolveTxt("_burrow-challenge.a.example.com")).rejects.toMatchObject({ code: "ENODATA" });
  });

  it("serves and clears CNAME records", async () => {
    await dns.setCname("www.a.example.com", "frp.burrow.example");
    expect(await resolver.resolveCname("www.a.example.com")).toEqual(["frp.burrow.example"]);
    await dns.clearCname("www.a.example.com");
    await expect(resolver.resolveCname("www.a.example.com")).rejects.toMatchObject({ code: "ENODATA" });
  });
});
