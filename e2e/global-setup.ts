import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, openSync, readFileSync, writeFileSync } from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { startAcmeServer } from "../apps/server/test/acme-server";
import { startDnsServer } from "../apps/server/test/dns-server";
import { startFakeChat } from "../apps/server/test/fake-chat";
import { ADMIN, BASE_URL, DNS_STATE, E2E_PORT, REPO_ROOT, SERVER_LOG, SERVER_STATE, TMP_DIR } from "./fixtures/env";

function portInUse(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host: "127.0.0.1", port });
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}

async function waitForHealth(child: ChildProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) break;
    try {
      const res = await fetch(`${BASE_URL}/api/healthz`);
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  const tail = readFileSync(SERVER_LOG, "utf8").split("\n").slice(-30).join("\n");
  throw new Error(`the server did not become healthy (exit code ${child.exitCode}). Log tail:\n${tail}`);
}

/**
 * Starts the real server on a fresh data directory, serving the built web app (built here only
 * when apps/web/dist is missing; the root test script builds it first). Stdout goes to
 * e2e/.tmp/server.log, where the specs read SMS codes.
 */
export default async function globalSetup(): Promise<void> {
  // E2E_WEB_DIST: serve another build of the web app (a run that must not see concurrent rebuilds).
  const webDist = process.env.E2E_WEB_DIST ?? path.join(REPO_ROOT, "apps/web/dist");
  if (!existsSync(path.join(webDist, "index.html"))) {
    const outDir = process.env.E2E_WEB_DIST ? ["--", "--outDir", webDist] : [];
    execFileSync("npm", ["run", "build", "-w", "@burrow/web", ...outDir], { cwd: REPO_ROOT, stdio: "inherit" });
  }
  if (await portInUse(E2E_PORT)) {
    throw new Error(`port ${E2E_PORT} is already in use; stop that process or set E2E_PORT`);
  }
  mkdirSync(TMP_DIR, { recursive: true });
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "burrow-e2e-"));
  // The DNS server the console verifies customer domains against (pebble-challtestsrv on
  // loopback); the domain specs set its records through its management API.
  const dns = await startDnsServer();
  writeFileSync(
    DNS_STATE,
    JSON.stringify({ dnsServer: dns.dnsServer, managementUrl: dns.managementUrl, pid: dns.pid }),
  );
  // The ACME CA (pebble) on loopback, looking its DNS-01 records up on that DNS server; the
  // teardown (same process) stops it.
  const acme = await startAcmeServer({ dnsServer: dns.dnsServer });
  (globalThis as { __burrowAcme?: { stop(): Promise<void> } }).__burrowAcme = acme;
  const log = openSync(SERVER_LOG, "w");
  // The frpc assistant's AI endpoint: a local chat-completions server in this (the runner's)
  // process, streaming slowly enough to watch; it lives as long as the run (unref'd, no teardown).
  const ai = await startFakeChat({ delayMs: 400, unref: true });
  // E2E_SERVER_ENTRY: run another server entry (a local build of the server under test).
  const entry = process.env.E2E_SERVER_ENTRY ?? "apps/server/src/main.ts";
  const child = spawn(process.execPath, ["--import", "tsx", entry], {
    cwd: REPO_ROOT,
    env: {
      ...process.env,
      HOST: "127.0.0.1",
      PORT: String(E2E_PORT),
      DATA_DIR: dataDir,
      WEB_DIST: webDist,
      ADMIN_PHONE: ADMIN.phone,
      ADMIN_PASSWORD: ADMIN.password,
      NODE_ENV: "test",
      SMS_DRIVER: "console",
      // Every browser test signs up from 127.0.0.1; the default (30 an hour) would refuse the suite.
      SMS_IP_HOURLY_LIMIT: "10000",
      LOG_LEVEL: "warn",
      // The payment gateway (the built-in sandbox) calls back and returns the browser to this origin.
      PUBLIC_URL: BASE_URL,
      // The frp node poller is off under NODE_ENV=test; the tunnel journey needs it, polling often.
      FRP_POLLER: "1",
      FRP_POLL_INTERVAL: "5",
      // The dead-letter page retries a delivery and the spec waits for the handler (issue 31 §3).
      OUTBOX_DISPATCH: "1",
      // webhooks.spec.ts posts to a receiver it starts on 127.0.0.1 (off by default, refused in production).
      WEBHOOK_ALLOW_LOOPBACK: "1",
      // The tunnel specs create tunnels for unverified customers; verify.spec.ts turns it on itself.
      VERIFY_REQUIRED_FOR_TUNNELS: "0",
      // Domains and certificates talk to the loopback peers; only this server trusts pebble's HTTPS
      // certificate. The ACME step job runs often so that an issue finishes while the page watches.
      DNS_SERVERS: dns.dnsServer,
      AI_BASE_URL: ai.baseUrl,
      AI_API_KEY: "e2e-fake-key",
      AI_MODEL: "fake-model",
      AI_DAILY_LIMIT: "1000",
      ACME_DIRECTORY: acme.directoryUrl,
      NODE_EXTRA_CA_CERTS: acme.tlsCaFile,
      SSL_KEY_SECRET: "e2e-ssl-key-secret-0123456789abcdef",
      SSL_JOBS: "1",
      SSL_CHECK_INTERVAL: "2",
    },
    stdio: ["ignore", log, log],
  });
  writeFileSync(SERVER_STATE, JSON.stringify({ pid: child.pid, dataDir }));
  await waitForHealth(child, 60_000);
  // The suite's process must not wait for the server; the teardown stops it.
  child.unref();
}
