import type { AdminNodeDetail, TunnelConfig } from "@burrow/contract";
import { parseFrpcConfig, parseToml, type TomlTable } from "@burrow/frps-sim";
import { describe, expect, it } from "vitest";
import { tunnelSuite } from "../../../test/domain-fixtures";
import { createTestNode, createTestTunnel, setPlan } from "../../../test/frp-fixtures";
import type { TestApp } from "../../../test/harness";

let t: TestApp;
let admin: string;
let node: AdminNodeDetail;
tunnelSuite((ready) => ({ t, admin, node } = ready), { bind_port: 7100 });

describe("frpc configuration (/user/tun/config)", () => {
  it("writes valid frpc TOML for all of a customer's tunnels on a node", async () => {
    const u = await t.register();
    await setPlan(t, u.uid);
    const token = (await t.api<{ frp_token: string }>("GET", "/user/userInfo", { token: u.token })).body.data.frp_token;
    const tcp = await createTestTunnel(t, u.token, {
      node_id: node.node_id,
      tun_name: "ssh",
      local_port: 22,
      use_encryption: true,
    });
    const web = await createTestTunnel(t, u.token, {
      node_id: node.node_id,
      tun_name: "博客",
      protocol: "http",
      local_ip: "192.168.1.10",
      local_port: 8080,
      custom_domains: ["blog.example.com"],
      subdomain: `b${u.uid}`,
      use_compression: true,
      addon: { locations: ["/"], http_user: "u", http_password: 'p"w', host_header_rewrite: "127.0.0.1" },
    });
    const locked = await createTestTunnel(t, u.token, { node_id: node.node_id, protocol: "udp" });
    await t.api("PATCH", "/super/tun", {
      token: admin,
      body: { tun_id: locked.tun_id, status: 3, banned_reason: "x" },
    });
    const off = await createTestTunnel(t, u.token, { node_id: node.node_id, protocol: "udp" });
    await t.api("PATCH", "/user/tun", { token: u.token, body: { tun_id: off.tun_id, enabled: false } });

    const r = await t.api<TunnelConfig>("GET", "/user/tun/config", {
      token: u.token,
      query: { node_id: node.node_id },
    });
    const cfg = r.body.data;
    expect(cfg).toMatchObject({ scope: "node", node_id: node.node_id, filename: `frpc_node${node.node_id}.toml` });
    expect(cfg.tun_ids).toEqual([tcp.tun_id, web.tun_id, off.tun_id]);
    const toml = parseToml(cfg.toml);
    expect(toml).toMatchObject({
      serverAddr: "node.example.net",
      serverPort: 7100,
      user: `u_${u.uid}`,
      metadatas: { token },
      loginFailExit: false,
      transport: { heartbeatInterval: 30, heartbeatTimeout: 90 },
    });
    const proxies = toml.proxies as TomlTable[];
    expect(proxies[0]).toEqual({
      name: `t_${tcp.tun_id}`,
      type: "tcp",
      localIP: "127.0.0.1",
      localPort: 22,
      remotePort: tcp.remote_port,
      transport: { useEncryption: true },
      metadatas: { tunnel_id: String(tcp.tun_id) },
    });
    expect(proxies[1]).toEqual({
      name: `t_${web.tun_id}`,
      type: "http",
      localIP: "192.168.1.10",
      localPort: 8080,
      customDomains: ["blog.example.com"],
      subdomain: `b${u.uid}`,
      locations: ["/"],
      httpUser: "u",
      httpPassword: 'p"w',
      hostHeaderRewrite: "127.0.0.1",
      transport: { useCompression: true },
      metadatas: { tunnel_id: String(web.tun_id) },
    });
    // Comments in Chinese, like the console: every comment line has Chinese text and no English sentence.
    const comments = cfg.toml.split("\n").filter((l) => l.startsWith("#"));
    expect(comments.length).toBe(3 + 3);
    for (const c of comments) {
      expect(c).toMatch(/[\u4e00-\u9fff]/);
      expect(c).not.toMatch(/\b(the|for|your|every|Keep)\b/);
    }
    expect(comments).toContain(`# 隧道 "博客"（#${web.tun_id}）`);
    // what frpc itself would read
    const parsed = parseFrpcConfig(cfg.toml);
    expect(parsed.heartbeatInterval).toBe(30);
    expect(parsed.proxies.map((p) => p.name)).toEqual([`t_${tcp.tun_id}`, `t_${web.tun_id}`, `t_${off.tun_id}`]);
    expect(cfg.commands).toEqual({
      windows: `.\\frpc.exe -c .\\${cfg.filename}`,
      macos: expect.stringContaining(`./frpc -c ./${cfg.filename}`),
      linux: `chmod +x ./frpc && ./frpc -c ./${cfg.filename}`,
    });
  });

  it("writes one tunnel's config, and refuses bad or foreign requests", async () => {
    const u = await t.register();
    await setPlan(t, u.uid);
    const x = await createTestTunnel(t, u.token, { node_id: node.node_id });
    const one = await t.api<TunnelConfig>("GET", "/user/tun/config", { token: u.token, query: { tun_id: x.tun_id } });
    expect(one.body.data).toMatchObject({ scope: "tunnel", tun_ids: [x.tun_id], filename: `frpc_t${x.tun_id}.toml` });
    expect((parseToml(one.body.data.toml).proxies as TomlTable[]).length).toBe(1);
    const both = await t.api("GET", "/user/tun/config", {
      token: u.token,
      query: { tun_id: x.tun_id, node_id: node.node_id },
    });
    expect(both.body.code).toBe(10000);
    expect(both.body.msg).toContain("tun_id");
    const none = await t.api("GET", "/user/tun/config", { token: u.token });
    expect(none.body.code).toBe(10000);
    const other = await createTestNode(t, {}, admin);
    expect((await t.api("GET", "/user/tun/config", { token: u.token, query: { node_id: other.node_id } })).status).toBe(
      404,
    );
    const stranger = await t.register();
    expect(
      (await t.api("GET", "/user/tun/config", { token: stranger.token, query: { tun_id: x.tun_id } })).status,
    ).toBe(404);
  });
});
