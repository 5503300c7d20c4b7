import {
  type AdminNodeDetail,
  ErrorCode,
  type LaunchCommands,
  type LaunchTokenView,
  NodeStatus,
  type TunnelConfig,
  UserStatus,
} from "@burrow/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDomains } from "../../../test/domain-fixtures";
import { createTestNode, createTestTunnel, registerWithPlan } from "../../../test/frp-fixtures";
import { createTestApp, type TestApp } from "../../../test/harness";
import { loggedUrl } from "../../http/request-log";
import { ACCOUNT_BANNED, LAUNCH_PER_IP, LAUNCH_PER_TOKEN, TOKEN_GONE, TOKEN_RETIRED } from "./launch.public";
import { launchTokenHash, PUBLIC_URL_NOT_HTTPS } from "./launch.service";

const PUBLIC_URL = "https://console.example.com/burrow";
let t: TestApp;
let node: AdminNodeDetail;
let other: AdminNodeDetail;
beforeAll(async () => {
  t = await createTestApp({ PUBLIC_URL });
  openDomains(t);
  node = await createTestNode(t);
  other = await createTestNode(t);
});
afterAll(() => t.close());

let ipSeq = 0;
let nextPort = 20_000;
/** A public fetch, each from its own address unless told (the per-address limit has its own test). */
const fetchFile = async (path: string, ip = `203.0.${(++ipSeq >> 8) & 255}.${ipSeq & 255}`) => {
  const r = await t.app.inject({ method: "GET", url: path, remoteAddress: ip });
  return {
    status: r.statusCode,
    text: r.body,
    type: String(r.headers["content-type"]),
    retryAfter: r.headers["retry-after"],
  };
};
const commands = async (token: string, nodeId = node.node_id) =>
  (await t.api<LaunchCommands>("GET", "/user/launch/commands", { token, query: { node_id: nodeId } })).body;
const tokenOf = (c: LaunchCommands) => /\/launch\/(bl[A-Za-z0-9_-]{32})\//.exec(c.commands?.linux ?? "")?.[1] ?? "";

async function customerWithTunnel() {
  const u = await registerWithPlan(t);
  const tun = await createTestTunnel(t, u.token, { node_id: node.node_id, remote_port: nextPort++ });
  const c = (await commands(u.token)).data;
  return { ...u, tun, launch: tokenOf(c), commands: c };
}

describe("the launch token", () => {
  it("is issued on first use, shown again unchanged, rotated, revoked; stored with its SHA-256", async () => {
    const u = await registerWithPlan(t);
    const none = await t.api<LaunchTokenView>("GET", "/user/launch", { token: u.token });
    expect(none.body.data).toEqual({ token: null, created_at: null });

    const c1 = (await commands(u.token)).data;
    const token = tokenOf(c1);
    expect(token).toMatch(/^bl[A-Za-z0-9_-]{32}$/);
    expect((await commands(u.token)).data.commands).toEqual(c1.commands);
    const shown = (await t.api<LaunchTokenView>("GET", "/user/launch", { token: u.token })).body.data;
    expect(shown).toEqual({ token, created_at: c1.token_created_at });
    const row = await t.db.selectFrom("launch_tokens").selectAll().where("uid", "=", u.uid).executeTakeFirstOrThrow();
    expect(row.token_hash).toBe(launchTokenHash(token));

    const rotated = (await t.api<LaunchTokenView>("POST", "/user/launch", { token: u.token })).body.data;
    expect(rotated.token).toMatch(/^bl/);
    expect(rotated.token).not.toBe(token);
    expect(tokenOf((await commands(u.token)).data)).toBe(rotated.token);

    // another customer's rotation and revocation touch only their own row
    const other = await registerWithPlan(t);
    await t.api("POST", "/user/launch", { token: other.token });
    await t.api("DELETE", "/user/launch", { token: other.token });
    expect((await t.api<LaunchTokenView>("GET", "/user/launch", { token: u.token })).body.data.token).toBe(
      rotated.token,
    );

    const revoked = await t.api<LaunchTokenView>("DELETE", "/user/launch", { token: u.token });
    expect(revoked.body.data).toEqual({ token: null, created_at: null });
    expect(await t.db.selectFrom("launch_tokens").selectAll().where("uid", "=", u.uid).execute()).toEqual([]);
  });

  it("concurrent first uses and rotations leave exactly one token", async () => {
    const u = await registerWithPlan(t);
    const firsts = await Promise.all(Array.from({ length: 6 }, () => commands(u.token)));
    expect(new Set(firsts.map((c) => tokenOf(c.data))).size).toBe(1);
    await Promise.all(Array.from({ length: 6 }, () => t.api("POST", "/user/launch", { token: u.token })));
    const rows = await t.db.selectFrom("launch_tokens").selectAll().where("uid", "=", u.uid).execute();
    expect(rows).toHaveLength(1);
    expect((await t.api<LaunchTokenView>("GET", "/user/launch", { token: u.token })).body.data.token).toBe(
      rows[0].token,
    );
  });

  it("API tokens: tunnels:read reads the installers, never rotates or revokes", async () => {
    const u = await registerWithPlan(t);
    const minted = await t.api<{ token: string }>("POST", "/user/apiToken", {
      token: u.token,
      body: { name: "ci", scopes: ["tunnels:read"] },
    });
    const api = minted.body.data.token;
    expect((await commands(api)).code).toBe("SUCCESS");
    for (const method of ["POST", "DELETE"]) {
      const r = await t.api(method, "/user/launch", { token: api });
      expect(r.status).toBe(403);
      expect(r.body.code).toBe(ErrorCode.NoPermission);
    }
  });

  it("a bad or unknown node id: 400 naming node_id, 404; nothing issued", async () => {
    const u = await registerWithPlan(t);
    for (const node_id of ["x", "0", ""]) {
      const r = await t.api("GET", "/user/launch/commands", { token: u.token, query: { node_id } });
      expect(r.status).toBe(400);
      expect(r.body).toMatchObject({ code: ErrorCode.InvalidParams });
      expect(r.body.msg).toContain("node_id");
    }
    expect((await t.api("GET", "/user/launch/commands", { token: u.token, query: { node_id: 999_999 } })).status).toBe(
      404,
    );
    expect(await t.db.selectFrom("launch_tokens").selectAll().where("uid", "=", u.uid).execute()).toEqual([]);
  });
});

describe("/launch/<token>/<node>/…", () => {
  it("frpc.toml is the customer's node config, as the console shows it, in plain text", async () => {
    const c = await customerWithTunnel();
    const cfg = await t.api<TunnelConfig>("GET", "/user/tun/config", {
      token: c.token,
      query: { node_id: node.node_id },
    });
    const r = await fetchFile(`/launch/${c.launch}/${node.node_id}/frpc.toml`);
    expect(r.status).toBe(200);
    expect(r.type).toMatch(/^text\/plain/);
    expect(r.text).toBe(cfg.body.data.toml);
    // a tunnel added in the console is in the next start's config
    const second = await createTestTunnel(t, c.token, { node_id: node.node_id, remote_port: nextPort++ });
    expect((await fetchFile(`/launch/${c.launch}/${node.node_id}/frpc.toml`)).text).toContain(`t_${second.tun_id}`);
  });

  it("a rotated or revoked token: 401 with the message the wrapper prints; the new token works", async () => {
    const c = await customerWithTunnel();
    const old = c.launch;
    const rotated = (await t.api<LaunchTokenView>("POST", "/user/launch", { token: c.token })).body.data
      .token as string;
    for (const file of ["frpc.toml", "install.sh", "start.sh", "install.ps1", "frpc?os=linux&arch=amd64"]) {
      const r = await fetchFile(`/launch/${old}/${node.node_id}/${file}`);
      expect(r.status, file).toBe(401);
      expect(r.text).toBe(`${TOKEN_GONE}\n`);
    }
    expect((await fetchFile(`/launch/${rotated}/${node.node_id}/frpc.toml`)).status).toBe(200);
    await t.api("DELETE", "/user/launch", { token: c.token });
    expect((await fetchFile(`/launch/${rotated}/${node.node_id}/frpc.toml`)).status).toBe(401);
    // garbage in the token's place: the same answer, no lookup of anything else
    for (const bad of ["x", `${rotated.slice(0, -1)}A`, "%27%3Bid", "a".repeat(90)])
      expect((await fetchFile(`/launch/${bad}/${node.node_id}/frpc.toml`)).status).toBe(401);
  });

  it("a banned account: 403 with its own message", async () => {
    const c = await customerWithTunnel();
    await t.db.updateTable("users").set({ status: UserStatus.Banned }).where("uid", "=", c.uid).execute();
    const r = await fetchFile(`/launch/${c.launch}/${node.node_id}/frpc.toml`);
    expect(r).toMatchObject({ status: 403, text: `${ACCOUNT_BANNED}\n` });
  });

  it("one customer's token never gives another's config; a node without the customer's tunnels is a clear 404", async () => {
    const a = await customerWithTunnel();
    const b = await customerWithTunnel();
    const ra = await fetchFile(`/launch/${a.launch}/${node.node_id}/frpc.toml`);
    const rb = await fetchFile(`/launch/${b.launch}/${node.node_id}/frpc.toml`);
    expect(ra.text).toContain(`t_${a.tun.tun_id}`);
    expect(ra.text).not.toContain(`t_${b.tun.tun_id}`);
    expect(rb.text).not.toContain(`t_${a.tun.tun_id}`);
    const none = await fetchFile(`/launch/${a.launch}/${other.node_id}/frpc.toml`);
    expect(none.status).toBe(404);
    expect(none.text).toContain("该节点上的可用隧道");
    for (const bad of ["0", "abc", "1e3", "-1", "99999999999"]) {
      const r = await fetchFile(`/launch/${a.launch}/${bad}/frpc.toml`);
      expect(r.status, bad).toBe(400);
      expect(r.text).toContain("node_id");
    }
    expect((await fetchFile(`/launch/${a.launch}/${node.node_id}/passwd`)).status).toBe(404);
  });

  it("an frp token reset retires the launch token (review R1 F2): 401 saying why, and the next card issues a new one", async () => {
    const c = await customerWithTunnel();
    expect((await fetchFile(`/launch/${c.launch}/${node.node_id}/frpc.toml`)).status).toBe(200);
    const reset = await t.api<{ frp_token: string }>("POST", "/user/frpToken", { token: c.token });
    expect(reset.body.code).toBe("SUCCESS");
    const old = await fetchFile(`/launch/${c.launch}/${node.node_id}/frpc.toml`);
    expect(old).toMatchObject({ status: 401, text: `${TOKEN_RETIRED}\n` });
    expect((await fetchFile(`/launch/${c.launch}/${node.node_id}/install.sh`)).status).toBe(401);
    // the personal centre shows none until a card issues the next one, bound to the new frp token
    const shown = await t.api<LaunchTokenView>("GET", "/user/launch", { token: c.token });
    expect(shown.body.data).toEqual({ token: null, created_at: null });
    const next = tokenOf((await commands(c.token)).data);
    expect(next).not.toBe(c.launch);
    const cfg = await fetchFile(`/launch/${next}/${node.node_id}/frpc.toml`);
    expect(cfg.status).toBe(200);
    expect(cfg.text).toContain(reset.body.data.frp_token);
  });

  it("a node the customer may not use (off the shelf, above the plan's level): 404 for the card and every script, its name never shown (R1 F6)", async () => {
    const c = await customerWithTunnel();
    const shelved = await createTestNode(t, { name: `下架节点-${Date.now()}` });
    await t.db
      .updateTable("nodes")
      .set({ status: NodeStatus.OffShelf })
      .where("node_id", "=", shelved.node_id)
      .execute();
    const top = await t.db
      .selectFrom("plan_levels")
      .select(["id", "level"])
      .orderBy("level", "desc")
      .executeTakeFirstOrThrow();
    const high = await createTestNode(t, { name: `高级节点-${Date.now()}`, level_id: top.id });
    // the seed's levels are 1-3; the customer's plan is level 1
    expect(top.level).toBeGreaterThan(1);
    for (const n of [shelved, high]) {
      const card = await commands(c.token, n.node_id);
      expect(card.code, n.name).toBe(ErrorCode.NotFound);
      for (const file of ["install.sh", "start.sh", "install.ps1"]) {
        const r = await fetchFile(`/launch/${c.launch}/${n.node_id}/${file}`);
        expect(r.status, `${n.name} ${file}`).toBe(404);
        expect(r.text).not.toContain(n.name);
      }
    }
  });

  it("frpc: the newest build for the platform as '<sha256> <url>'; unknown platform 400, none 404", async () => {
    const c = await customerWithTunnel();
    const admin = await t.adminToken();
    const sum = (n: string) => n.repeat(64);
    for (const [version, s] of [
      ["0.61.2", "a"],
      ["0.70.1", "b"],
    ])
      await t.api("POST", "/super/download", {
        token: admin,
        body: { os: "linux", arch: "arm64", version, url: `https://mirror.example/frpc-${version}`, checksum: sum(s) },
      });
    const r = await fetchFile(`/launch/${c.launch}/${node.node_id}/frpc?os=linux&arch=arm64`);
    expect(r).toMatchObject({ status: 200, text: `${sum("b")} https://mirror.example/frpc-0.70.1\n` });
    expect((await fetchFile(`/launch/${c.launch}/${node.node_id}/frpc?os=linux&arch=riscv64`)).status).toBe(404);
    expect((await fetchFile(`/launch/${c.launch}/${node.node_id}/frpc?os=linux&arch=sparc`)).status).toBe(400);
    expect((await fetchFile(`/launch/${c.launch}/${node.node_id}/frpc?os=plan9&arch=amd64`)).status).toBe(400);
  });

  it("rate-limited per token and per address (429), the token's name never logged", async () => {
    const c = await customerWithTunnel();
    const path = `/launch/${c.launch}/${node.node_id}/frpc.toml`;
    const byToken = await Promise.all(Array.from({ length: LAUNCH_PER_TOKEN + 5 }, () => fetchFile(path)));
    expect(byToken.filter((r) => r.status === 200)).toHaveLength(LAUNCH_PER_TOKEN);
    expect(byToken.filter((r) => r.status === 429).length).toBe(5);
    // a 429 says how long to wait (Retry-After, seconds within the minute's window), as its text does
    for (const r of byToken.filter((x) => x.status === 429)) {
      expect(Number(r.retryAfter)).toBeGreaterThanOrEqual(1);
      expect(Number(r.retryAfter)).toBeLessThanOrEqual(60);
      expect(r.text).toContain(`请 ${r.retryAfter} 秒后再试`);
    }
    expect(byToken.find((x) => x.status === 200)?.retryAfter).toBeUndefined();
    // one address guessing tokens is stopped as well
    const guesses = await Promise.all(
      Array.from({ length: LAUNCH_PER_IP + 3 }, (_, i) =>
        fetchFile(`/launch/bl${String(i).padStart(32, "x")}/${node.node_id}/frpc.toml`, "198.51.100.7"),
      ),
    );
    expect(guesses.filter((r) => r.status === 429)).toHaveLength(3);
    for (const r of guesses.filter((x) => x.status === 429)) expect(Number(r.retryAfter)).toBeGreaterThanOrEqual(1);
    expect(loggedUrl(path)).toBe(`/launch/***/${node.node_id}/frpc.toml`);
    expect(loggedUrl(path)).not.toContain(c.launch);
    // however the path is spelt, the token is not logged (R1 F5)
    for (const spelt of [
      `//launch/${c.launch}/1/install.sh`,
      `/./launch/${c.launch}/1/install.sh`,
      `/%6caunch/${c.launch}/1/install.sh`,
      `/LAUNCH/${c.launch}/1/install.sh`,
      `http://console.example.com/launch/${c.launch}/1/install.sh`,
      `/burrow/launch/${c.launch}/1/install.sh`,
      `/launch/${c.launch.slice(0, 10)}%${c.launch.slice(10)}/1/x`,
    ])
      expect(loggedUrl(spelt), spelt).not.toContain(c.launch.slice(0, 12));
  });
});

describe("installers", () => {
  it("without PUBLIC_URL: the card says so, the scripts answer 503 with the same words", async () => {
    const bare = await createTestApp();
    try {
      openDomains(bare);
      const n = await createTestNode(bare);
      const u = await registerWithPlan(bare);
      const r = await bare.api<LaunchCommands>("GET", "/user/launch/commands", {
        token: u.token,
        query: { node_id: n.node_id },
      });
      expect(r.body.data).toMatchObject({ commands: null, token_created_at: null });
      expect(r.body.data.missing).toContain("PUBLIC_URL");
      const tok = (await bare.api<LaunchTokenView>("POST", "/user/launch", { token: u.token })).body.data.token;
      const s = await bare.app.inject({ method: "GET", url: `/launch/${tok}/${n.node_id}/install.sh` });
      expect(s.statusCode).toBe(503);
      expect(s.body).toContain("PUBLIC_URL");
    } finally {
      await bare.close();
    }
  });

  it("a plain-http PUBLIC_URL (not loopback): no command to pipe into a root shell, the scripts 503 saying why (R1 F4)", async () => {
    const plain = await createTestApp({ PUBLIC_URL: "http://console.example.com" });
    try {
      openDomains(plain);
      const n = await createTestNode(plain);
      const u = await registerWithPlan(plain);
      const r = await plain.api<LaunchCommands>("GET", "/user/launch/commands", {
        token: u.token,
        query: { node_id: n.node_id },
      });
      expect(r.body.data).toMatchObject({ commands: null, missing: PUBLIC_URL_NOT_HTTPS });
      const tok = (await plain.api<LaunchTokenView>("POST", "/user/launch", { token: u.token })).body.data.token;
      const s = await plain.app.inject({ method: "GET", url: `/launch/${tok}/${n.node_id}/install.sh` });
      expect(s.statusCode).toBe(503);
      expect(s.body).toContain("https");
    } finally {
      await plain.close();
    }
  });

  it("every command and script uses the configured PUBLIC_URL, never the request's Host", async () => {
    const c = await customerWithTunnel();
    for (const cmd of Object.values(c.commands.commands ?? {}))
      expect(cmd).toContain(`${PUBLIC_URL}/launch/${c.launch}/${node.node_id}/`);
    const r = await t.app.inject({
      method: "GET",
      url: `/launch/${c.launch}/${node.node_id}/install.sh`,
      headers: { host: "evil.example", "x-forwarded-host": "evil.example" },
    });
    expect(r.statusCode).toBe(200);
    expect(r.body).toContain(`BURROW_API='${PUBLIC_URL}/launch/${c.launch}/${node.node_id}'`);
    expect(r.body).not.toContain("evil.example");
  });
});
