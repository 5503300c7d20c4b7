/**
 * Real frps (tools/frp/build.sh's v0.61.2) with its httpPlugins pointing at the agent, and a real
 * frpc: the session logs in and carries traffic through decisions the agent makes; with the
 * console gone, a new visitor is still admitted from the copy.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it, type TaskMeta } from "vitest";
import {
  FRP_BIN_DIR,
  freePortRange,
  killFrp,
  localServices,
  runFrp,
  tcpEcho,
} from "../../server/test/real-frp/frp-env";
import { Agent } from "../src/agent";
import { agentConfig, customer, fakeConsole, until } from "./fake-console";

const VERSION = "v0.61.2";
const built = fs.existsSync(path.join(FRP_BIN_DIR, VERSION, "frps"));
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "burrow-agent-frp-"));
afterAll(async () => {
  await killFrp();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe("real frps through the agent", () => {
  it("frpc logs in and carries traffic through the agent; with the console stopped a new visitor is still admitted", {
    skip: !built,
    meta: { skipReason: `frp ${VERSION} not built (bash tools/frp/build.sh)` } as TaskMeta,
  }, async () => {
    const base = await freePortRange(3);
    const [bindPort, remotePort, pluginPort] = [base, base + 1, base + 2];
    const services = await localServices("agent");
    const c = await fakeConsole();
    const u = customer(31, remotePort);
    c.users.set(31, u);
    const agent = new Agent(agentConfig(c.url, path.join(dir, "state"), { pluginPort }), {
      log: () => {},
      kill: async () => {},
    });
    await agent.start();
    try {
      await until(() => agent.link.connected, 10_000, "stream");
      const frps = path.join(dir, "frps.toml");
      fs.writeFileSync(
        frps,
        [
          'bindAddr = "127.0.0.1"',
          `bindPort = ${bindPort}`,
          "[[httpPlugins]]",
          'name = "burrow-agent"',
          `addr = "127.0.0.1:${pluginPort}"`,
          'path = "/frp/plugin"',
          'ops = ["Login", "NewProxy", "CloseProxy", "Ping", "NewWorkConn", "NewUserConn"]',
        ].join("\n"),
      );
      const frpc = path.join(dir, "frpc.toml");
      fs.writeFileSync(
        frpc,
        [
          'serverAddr = "127.0.0.1"',
          `serverPort = ${bindPort}`,
          `user = "u_31"`,
          `metadatas.token = "${u.token}"`,
          "[[proxies]]",
          'name = "t_310"',
          'type = "tcp"',
          'localIP = "127.0.0.1"',
          `localPort = ${services.tcpPort}`,
          `remotePort = ${remotePort}`,
        ].join("\n"),
      );
      const bins = { frps: path.join(FRP_BIN_DIR, VERSION, "frps"), frpc: path.join(FRP_BIN_DIR, VERSION, "frpc") };
      const server = runFrp(bins.frps, frps);
      await server.waitForLog(/frps started successfully/);
      const client = runFrp(bins.frpc, frpc);
      await client.waitForLog(/start proxy success/);

      const data = Buffer.from("through the agent");
      expect((await tcpEcho(remotePort, data, 10_000)).back.toString()).toBe("through the agent");
      await until(
        () => c.applied.some((e) => e.kind === "hold") && c.applied.some((e) => e.kind === "conn"),
        5000,
        "hold and visitor delivered",
      );

      // The console goes away: a new visitor is decided from the copy.
      await c.close();
      await until(() => !agent.link.connected, 5000, "link down");
      expect((await tcpEcho(remotePort, Buffer.from("console down"), 10_000)).back.toString()).toBe("console down");
      expect(agent.journal.size).toBeGreaterThan(0);
    } finally {
      await agent.stop();
      services.close();
    }
  });
});
