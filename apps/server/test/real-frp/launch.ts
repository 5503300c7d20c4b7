import { execFileSync, spawn } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import type { DownloadRow, LaunchCommands, LaunchTokenView, TunnelView } from "@burrow/contract";
import { expect } from "vitest";
import { TOKEN_GONE } from "../../src/modules/launch/launch.public";
import { REFUSED_EXIT } from "../../src/modules/launch/posix-scripts";
import { waitUntil } from "./frp-env";
import { namedServices, tcpGreeting } from "./port-range";

/** What the 一键启动 case needs of the suite. */
export interface LaunchCaseEnv {
  frpc: string;
  dir: string;
  nodeId: number;
  /** two remote ports of the node no other case uses */
  ports: [number, number];
  admin: string;
  api: <T>(method: string, p: string, o?: { token?: string; body?: unknown }) => Promise<T>;
  customer: () => Promise<{ uid: number; token: string }>;
}

/** The built frpc served over a local HTTP server, as an operator's download row points at a file; counts fetches. */
async function serveFile(file: string) {
  const bytes = fs.readFileSync(file);
  let fetches = 0;
  const srv = http.createServer((_req, res) => {
    fetches++;
    res.end(bytes);
  });
  await new Promise<void>((r) => srv.listen(0, "127.0.0.1", r));
  return {
    url: `http://127.0.0.1:${(srv.address() as AddressInfo).port}/frpc_linux`,
    sha256: createHash("sha256").update(bytes).digest("hex"),
    fetches: () => fetches,
    close: () => srv.close(),
  };
}

/** The start wrapper as systemd would run it (unprivileged, under BURROW_PREFIX): its output and exit. */
function runWrapper(wrapper: string, prefix: string) {
  let out = "";
  const child = spawn("sh", [wrapper], {
    env: { PATH: process.env.PATH, BURROW_PREFIX: prefix, TZ: "Asia/Shanghai" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout.on("data", (d) => {
    out += d;
  });
  child.stderr.on("data", (d) => {
    out += d;
  });
  const exited = new Promise<number | null>((r) => child.once("exit", (code) => r(code)));
  return {
    log: () => out,
    exited,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
      await exited;
    },
  };
}

const hostArch = () => ({ x64: "amd64", arm64: "arm64", arm: "arm" })[process.arch as "x64"] ?? process.arch;

/**
 * 一键启动 end to end: the Linux command from the console run as is (sudo dropped, into a temp root,
 * systemctl a no-op), then the wrapper it installed, as systemd would start it: it downloads frpc
 * from the operator's download row, checks its SHA-256, fetches the customer's frpc.toml by token
 * and execs frpc, which logs in to the real frps; a tunnel added in the console carries bytes after
 * a restart; a rotated token stops the next start with the console's message; a wrong checksum
 * keeps the download from running: a fresh install waits (exit 2), an install with a verified frpc
 * cached runs that one.
 */
export async function launchCase(env: LaunchCaseEnv): Promise<void> {
  const c = await env.customer();
  const svc = await namedServices(2);
  const file = await serveFile(env.frpc);
  const root = path.join(env.dir, `launch-${randomBytes(3).toString("hex")}`);
  const runs: ReturnType<typeof runWrapper>[] = [];
  try {
    const row = await env.api<DownloadRow>("POST", "/super/download", {
      token: env.admin,
      body: { os: "linux", arch: hostArch(), version: "0.0.1-launch", url: file.url, checksum: file.sha256 },
    });
    const tunnel = (local: number, remote: number) =>
      env.api<TunnelView>("POST", "/user/tun", {
        token: c.token,
        body: {
          node_id: env.nodeId,
          tun_name: `launch${remote}`,
          protocol: "tcp",
          local_port: local,
          remote_port: remote,
        },
      });
    await tunnel(svc.base, env.ports[0]);
    const cmds = await env.api<LaunchCommands>("GET", `/user/launch/commands?node_id=${env.nodeId}`, {
      token: c.token,
    });
    const linux = cmds.commands?.linux ?? "";
    expect(linux).toMatch(/^curl -fsSL (--proto '=https' --proto-redir '=https' )?-- '.+\/install\.sh' \| sudo sh$/);
    execFileSync("sh", ["-c", linux.replace(/\| sudo sh$/, "| sh")], {
      env: { PATH: process.env.PATH, BURROW_PREFIX: root, BURROW_SYSTEMCTL: "true", BURROW_SYSTEM: "systemd" },
    });
    const wrapper = path.join(root, `usr/local/lib/burrow/frpc-start-${env.nodeId}`);
    expect(fs.readFileSync(path.join(root, `etc/systemd/system/burrow-frpc-${env.nodeId}.service`), "utf8")).toContain(
      `ExecStart=/usr/local/lib/burrow/frpc-start-${env.nodeId}`,
    );

    // first start: frpc downloaded and verified, the config fetched, bytes through the real frps
    let run = runWrapper(wrapper, root);
    runs.push(run);
    const greet = (port: number) => waitUntil(`port ${port} through frps`, () => tcpGreeting(port).catch(() => null));
    expect(await greet(env.ports[0])).toBe(`svc ${svc.base}`);
    expect(file.fetches()).toBe(1);

    // a tunnel added in the console is live after a restart (frpc not downloaded again)
    await tunnel(svc.base + 1, env.ports[1]);
    await run.stop();
    run = runWrapper(wrapper, root);
    runs.push(run);
    expect(await greet(env.ports[1])).toBe(`svc ${svc.base + 1}`);
    expect(await greet(env.ports[0])).toBe(`svc ${svc.base}`);
    expect(file.fetches()).toBe(1);
    await run.stop();

    // the token rotated in the console: the next start prints why and exits 3 (not restarted) before frpc
    const rotated = await env.api<LaunchTokenView>("POST", "/user/launch", { token: c.token });
    expect(rotated.token).toBeTruthy();
    run = runWrapper(wrapper, root);
    runs.push(run);
    expect(await run.exited).toBe(REFUSED_EXIT);
    expect(run.log()).toContain(TOKEN_GONE);
    expect(run.log()).not.toContain("启动 frpc");
    await expect(tcpGreeting(env.ports[0], 1_000)).rejects.toThrow();

    // a fresh install with the new token, and a download row whose checksum is wrong: the download is
    // never run; with no verified frpc cached the start exits 2 (retried: the row may be corrected), not 3
    await env.api("PATCH", "/super/download", { token: env.admin, body: { id: row.id, checksum: "0".repeat(64) } });
    const fresh = await env.api<LaunchCommands>("GET", `/user/launch/commands?node_id=${env.nodeId}`, {
      token: c.token,
    });
    const root2 = `${root}-2`;
    execFileSync("sh", ["-c", (fresh.commands?.linux ?? "").replace(/\| sudo sh$/, "| sh")], {
      env: { PATH: process.env.PATH, BURROW_PREFIX: root2, BURROW_SYSTEMCTL: "true", BURROW_SYSTEM: "systemd" },
    });
    run = runWrapper(path.join(root2, `usr/local/lib/burrow/frpc-start-${env.nodeId}`), root2);
    runs.push(run);
    expect(await run.exited).toBe(2);
    expect(run.log()).toContain("frpc 校验失败");
    expect(run.log()).not.toContain("启动 frpc");
    expect(fs.existsSync(path.join(root2, `var/lib/burrow/node-${env.nodeId}/frpc`))).toBe(false);
    expect(fs.existsSync(path.join(root2, `var/lib/burrow/node-${env.nodeId}/download`))).toBe(false);
    // the old install (given the new token), whose frpc passed its checksum when downloaded: the bad
    // row costs it nothing — a warning, then the cached frpc carries bytes again (R1 F3)
    const fetchesBefore = file.fetches();
    fs.writeFileSync(wrapper, fs.readFileSync(path.join(root2, `usr/local/lib/burrow/frpc-start-${env.nodeId}`)));
    run = runWrapper(wrapper, root);
    runs.push(run);
    expect(await greet(env.ports[0])).toBe(`svc ${svc.base}`);
    expect(run.log()).toContain("frpc 校验失败");
    expect(run.log()).toContain("沿用此前校验通过的 frpc");
    expect(file.fetches()).toBe(fetchesBefore + 1);
    await run.stop();
  } finally {
    for (const r of runs) await r.stop();
    file.close();
    svc.close();
  }
}
