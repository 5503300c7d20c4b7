import { type ChildProcess, spawn } from "node:child_process";
import { Resolver } from "node:dns/promises";
import fs from "node:fs";
import type net from "node:net";
import { freePort } from "./free-port";

/**
 * A real DNS server on loopback for the domain and certificate tests: Debian's
 * `pebble-challtestsrv` (package pebble, installed by scripts/ensure-test-deps.sh). It answers
 * DNS over UDP and TCP from records the tests set through its HTTP management API; names it has
 * no record for get an empty answer (A queries get 127.0.0.1). Its HTTP-01, HTTPS and TLS-ALPN
 * challenge listeners are switched off. Point Burrow at it with `DNS_SERVERS: server.dnsServer`.
 */
export const CHALLTESTSRV = process.env.PEBBLE_CHALLTESTSRV ?? "/usr/bin/pebble-challtestsrv";

export interface TestDnsServer {
  /** "127.0.0.1:<port>", the value for DNS_SERVERS */
  dnsServer: string;
  /** the management API's base URL ("http://127.0.0.1:<port>") */
  managementUrl: string;
  /** the server process's id */
  pid: number;
  /** makes `value` the only TXT record of `host` (replacing any earlier ones) */
  setTxt(host: string, value: string): Promise<void>;
  /** adds one more TXT record to `host` */
  addTxt(host: string, value: string): Promise<void>;
  /** removes every TXT record of `host` */
  clearTxt(host: string): Promise<void>;
  /** makes `host` a CNAME for `target` */
  setCname(host: string, target: string): Promise<void>;
  /** removes the CNAME of `host` */
  clearCname(host: string): Promise<void>;
  /** stops the server (idempotent) */
  stop(): Promise<void>;
}

/** A port free on 127.0.0.1 for TCP and UDP at the moment of asking. */
async function freeTcpUdpPort(): Promise<number> {
  const port = await freePort();
  const dgram = await import("node:dgram");
  const free = await new Promise<boolean>((resolve) => {
    const u = dgram.createSocket("udp4");
    u.once("error", () => resolve(false));
    u.bind(port, "127.0.0.1", () => u.close(() => resolve(true)));
  });
  return free ? port : freeTcpUdpPort();
}

/** A fully qualified name as the management API wants it (one trailing dot). */
const fqdn = (host: string) => (host.endsWith(".") ? host : `${host}.`);

/**
 * Starts pebble-challtestsrv on free loopback ports and waits until it answers DNS queries.
 * Throws a clear error when the binary is missing or the server does not come up.
 */
export async function startDnsServer(): Promise<TestDnsServer> {
  if (!fs.existsSync(CHALLTESTSRV)) {
    throw new Error(
      `${CHALLTESTSRV} is missing: the domain tests need Debian's pebble-challtestsrv (run scripts/ensure-test-deps.sh, or apt-get install pebble; PEBBLE_CHALLTESTSRV names another path)`,
    );
  }
  for (let attempt = 1; ; attempt++) {
    try {
      return await startOnce();
    } catch (err) {
      // Another process may have taken a port between asking and binding: try fresh ports.
      if (attempt >= 3) throw err;
    }
  }
}

async function startOnce(): Promise<TestDnsServer> {
  const dnsPort = await freeTcpUdpPort();
  const mgmtPort = await freeTcpUdpPort();
  const dnsServer = `127.0.0.1:${dnsPort}`;
  const managementUrl = `http://127.0.0.1:${mgmtPort}`;
  let output = "";
  const child: ChildProcess = spawn(
    CHALLTESTSRV,
    [
      "-dns01",
      dnsServer,
      "-management",
      `127.0.0.1:${mgmtPort}`,
      "-http01",
      "",
      "-https01",
      "",
      "-tlsalpn01",
      "",
      "-defaultIPv6",
      "",
    ],
    { stdio: ["ignore", "pipe", "pipe"] },
  );
  child.stdout?.on("data", (d) => (output += d));
  child.stderr?.on("data", (d) => (output += d));
  let exited = false;
  const exit = new Promise<void>((resolve) =>
    child.once("exit", () => {
      exited = true;
      resolve();
    }),
  );

  const post = async (path: string, body: Record<string, string>): Promise<void> => {
    const res = await fetch(`${managementUrl}/${path}`, { method: "POST", body: JSON.stringify(body) });
    if (!res.ok) throw new Error(`pebble-challtestsrv /${path} ${JSON.stringify(body)}: HTTP ${res.status}`);
  };
  const stop = async () => {
    if (!exited) {
      child.kill("SIGTERM");
      await Promise.race([exit, new Promise((r) => setTimeout(r, 2000))]);
      if (!exited) child.kill("SIGKILL");
    }
  };

  // Ready when the management API takes a call and the DNS port answers a query.
  const resolver = new Resolver({ timeout: 300, tries: 1 });
  resolver.setServers([dnsServer]);
  const deadline = Date.now() + 10_000;
  for (;;) {
    if (exited) throw new Error(`pebble-challtestsrv exited at start:\n${output}`);
    try {
      await post("clear-txt", { host: "ready.burrow.test." });
      await resolver.resolve4("ready.burrow.test");
      break;
    } catch {
      if (Date.now() > deadline) {
        await stop();
        throw new Error(`pebble-challtestsrv did not come up on ${dnsServer} / ${managementUrl}:\n${output}`);
      }
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  // Never keep the caller's process alive (the browser suite's setup starts it and its teardown stops it by pid).
  child.unref();
  for (const s of [child.stdout, child.stderr]) (s as net.Socket | null)?.unref();

  const clearTxt = (host: string) => post("clear-txt", { host: fqdn(host) });
  const addTxt = (host: string, value: string) => post("set-txt", { host: fqdn(host), value });
  return {
    dnsServer,
    managementUrl,
    pid: child.pid ?? 0,
    async setTxt(host, value) {
      await clearTxt(host);
      await addTxt(host, value);
    },
    addTxt,
    clearTxt,
    setCname: (host, target) => post("set-cname", { host: fqdn(host), target: fqdn(target) }),
    clearCname: (host) => post("clear-cname", { host: fqdn(host) }),
    stop,
  };
}
