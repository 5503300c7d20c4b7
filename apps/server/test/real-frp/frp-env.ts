import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import dgram from "node:dgram";
import fs from "node:fs";
import http from "node:http";
import https from "node:https";
import net from "node:net";
import path from "node:path";
import type tls from "node:tls";

/**
 * Real frps and frpc, as tools/frp/build.sh builds them from the Go module proxy, and the local
 * services a customer's tunnels expose, all on loopback.
 */
const REPO = path.resolve(import.meta.dirname, "../../../..");
export const FRP_BIN_DIR = process.env.FRP_BIN_DIR ?? path.join(REPO, ".cache/frp");

export function frpBinaries(version: string): { frps: string; frpc: string } {
  const dir = path.join(FRP_BIN_DIR, version);
  const frps = path.join(dir, "frps");
  const frpc = path.join(dir, "frpc");
  if (!fs.existsSync(frps) || !fs.existsSync(frpc))
    throw new Error(`frp ${version} is not built in ${dir}: run \`bash tools/frp/build.sh\` (npm test does)`);
  return { frps, frpc };
}

/** `frps verify -c file` / `frpc verify -c file`: exit code and what it printed. */
export function verify(bin: string, file: string): { status: number | null; output: string } {
  const r = spawnSync(bin, ["verify", "-c", file], { encoding: "utf8", timeout: 15_000 });
  return { status: r.status, output: `${r.stdout}${r.stderr}` };
}

export interface FrpProcess {
  child: ChildProcess;
  log(): string;
  /** waits until the log matches, or throws with the log */
  waitForLog(re: RegExp, ms?: number): Promise<string>;
  /** SIGKILL (no CloseProxy, as a crash) or SIGTERM, and wait for the exit */
  stop(signal?: NodeJS.Signals): Promise<void>;
}

const running = new Set<ChildProcess>();

/**
 * Runs frps or frpc with a config file; TZ=Asia/Shanghai as the generated install scripts do.
 * `cwd`: where relative paths in the file point (frpc's https2http certificate files).
 */
export function runFrp(bin: string, file: string, cwd?: string): FrpProcess {
  let out = "";
  const child = spawn(bin, ["-c", file], {
    cwd,
    env: { PATH: process.env.PATH, TZ: "Asia/Shanghai" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  running.add(child);
  child.once("exit", () => running.delete(child));
  child.stdout?.on("data", (d) => {
    out += d;
  });
  child.stderr?.on("data", (d) => {
    out += d;
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  return {
    child,
    log: () => out,
    async waitForLog(re, ms = 20_000) {
      const until = Date.now() + ms;
      for (;;) {
        const m = re.exec(out);
        if (m) return m[0];
        if (Date.now() > until) throw new Error(`${path.basename(bin)}: no ${re} within ${ms} ms; its log:\n${out}`);
        await sleep(100);
      }
    },
    async stop(signal = "SIGTERM") {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill(signal);
      await exited;
    },
  };
}

export async function killFrp(): Promise<void> {
  await Promise.all(
    [...running].map(
      (c) =>
        new Promise<void>((resolve) => {
          c.once("exit", () => resolve());
          c.kill("SIGKILL");
        }),
    ),
  );
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function waitUntil<T>(what: string, fn: () => Promise<T | null | undefined | false>, ms = 20_000) {
  const until = Date.now() + ms;
  let last: unknown;
  for (;;) {
    try {
      const v = await fn();
      if (v) return v;
    } catch (err) {
      last = err;
    }
    if (Date.now() > until) throw new Error(`timed out after ${ms} ms waiting for ${what}${last ? `: ${last}` : ""}`);
    await sleep(200);
  }
}

const bindable = (port: number, kind: "tcp" | "udp") =>
  new Promise<boolean>((resolve) => {
    if (kind === "tcp") {
      const s = net.createServer();
      s.once("error", () => resolve(false));
      s.listen(port, "127.0.0.1", () => s.close(() => resolve(true)));
    } else {
      const s = dgram.createSocket("udp4");
      s.once("error", () => resolve(false));
      s.bind(port, "127.0.0.1", () => s.close(() => resolve(true)));
    }
  });

/** `n` consecutive ports free on loopback for tcp and udp (a node's ports and its remote range). */
/**
 * Below the kernel's ephemeral range (ip_local_port_range): a port found free there can be taken
 * by any outgoing connection on the machine (frpc's, the database's, a test's fetch) before frps
 * binds it, which frps reports as "port unavailable".
 */
function ephemeralStart(): number {
  try {
    const low = Number(fs.readFileSync("/proc/sys/net/ipv4/ip_local_port_range", "utf8").trim().split(/\s+/)[0]);
    if (Number.isInteger(low) && low > 12_000) return low;
  } catch {
    // not Linux: the usual default
  }
  return 32_768;
}

export async function freePortRange(n: number): Promise<number> {
  const top = ephemeralStart() - n;
  for (let attempt = 0; attempt < 200; attempt++) {
    const base = 10_000 + Math.floor(Math.random() * (top - 10_000));
    let ok = true;
    for (let p = base; p < base + n && ok; p++) ok = (await bindable(p, "tcp")) && (await bindable(p, "udp"));
    if (ok) return base;
  }
  throw new Error(`no ${n} consecutive free ports on loopback`);
}

/** A tcp echo service closes a connection idle this long, as real services time idle clients out. */
export const ECHO_IDLE_MS = 1_000;

/**
 * Local services a customer exposes: a tcp echo, a udp echo and an http server naming itself.
 * The echo closes idle connections itself: frps with a server-side bandwidth limit never passes a
 * visitor's close on to frpc (docs/frp.md, "What real frps showed"), so only the local service
 * can end such a connection, and frps counts its bytes only then.
 */
export async function localServices(tag: string) {
  const tcp = net.createServer((s) => {
    s.setTimeout(ECHO_IDLE_MS, () => s.end());
    s.on("error", () => s.destroy());
    s.pipe(s);
  });
  await new Promise<void>((r) => tcp.listen(0, "127.0.0.1", r));
  // a sink: reads everything, closes when the visitor is done
  const sink = net.createServer((s) => {
    s.on("error", () => s.destroy());
    s.on("end", () => s.end());
    s.resume();
  });
  await new Promise<void>((r) => sink.listen(0, "127.0.0.1", r));
  const udp = dgram.createSocket("udp4");
  udp.on("message", (msg, rinfo) => udp.send(msg, rinfo.port, rinfo.address));
  await new Promise<void>((r) => udp.bind(0, "127.0.0.1", r));
  const web = http.createServer((req, res) => {
    res.setHeader("content-type", "text/plain");
    res.end(`hello from ${tag} ${req.headers.host} ${req.url}`);
  });
  await new Promise<void>((r) => web.listen(0, "127.0.0.1", r));
  return {
    tcpPort: (tcp.address() as net.AddressInfo).port,
    sinkPort: (sink.address() as net.AddressInfo).port,
    udpPort: udp.address().port,
    httpPort: (web.address() as net.AddressInfo).port,
    close: () => {
      tcp.close();
      sink.close();
      udp.close();
      web.close();
    },
  };
}

/** Sends `data` through a tcp tunnel's remote port and reads the echo back: the bytes and the time. */
export function tcpEcho(port: number, data: Buffer, ms = 30_000): Promise<{ back: Buffer; elapsedMs: number }> {
  return new Promise((resolve, reject) => {
    const start = Date.now();
    const chunks: Buffer[] = [];
    let got = 0;
    const sock = net.connect(port, "127.0.0.1");
    const timer = setTimeout(() => {
      sock.destroy();
      reject(new Error(`echo through ${port}: ${got} of ${data.length} bytes within ${ms} ms`));
    }, ms);
    sock.on("data", (d) => {
      chunks.push(d);
      got += d.length;
      if (got >= data.length) {
        clearTimeout(timer);
        sock.end();
        resolve({ back: Buffer.concat(chunks), elapsedMs: Date.now() - start });
      }
    });
    sock.on("error", (err) => {
      clearTimeout(timer);
      reject(err);
    });
    sock.on("close", () => {
      clearTimeout(timer);
      if (got < data.length) reject(new Error(`echo through ${port} closed after ${got} of ${data.length} bytes`));
    });
    sock.write(data);
  });
}

/** Sends `total` bytes through a tcp tunnel's remote port in 1 MB writes, then closes and waits for the close. */
export function tcpUpload(port: number, total: number, ms = 120_000): Promise<void> {
  const chunk = Buffer.alloc(1024 * 1024, 7);
  return new Promise((resolve, reject) => {
    const sock = net.connect(port, "127.0.0.1");
    const timer = setTimeout(() => {
      sock.destroy();
      reject(new Error(`upload through ${port} did not finish within ${ms} ms`));
    }, ms);
    let sent = 0;
    const pump = () => {
      while (sent < total) {
        const n = Math.min(chunk.length, total - sent);
        sent += n;
        if (!sock.write(n === chunk.length ? chunk : chunk.subarray(0, n))) return void sock.once("drain", pump);
      }
      sock.end();
    };
    sock.on("connect", pump);
    sock.on("error", (err) => {
      clearTimeout(timer);
      reject(err);
    });
    sock.on("close", () => {
      clearTimeout(timer);
      resolve();
    });
  });
}

/** What a visitor gets from a tcp port within `ms`: the echo of a probe, or the connection closed on it. */
export function tcpProbe(port: number, ms = 5_000): Promise<"echoed" | "closed" | "silent"> {
  return new Promise((resolve) => {
    const sock = net.connect(port, "127.0.0.1");
    const done = (v: "echoed" | "closed" | "silent") => {
      clearTimeout(timer);
      sock.destroy();
      resolve(v);
    };
    const timer = setTimeout(() => done("silent"), ms);
    sock.on("data", () => done("echoed"));
    sock.on("error", () => done("closed"));
    sock.on("close", () => done("closed"));
    sock.write("probe");
  });
}

/** A visitor that stays connected, sending a byte every `everyMs` and counting the echoes. */
export function heldConnection(port: number, everyMs: number) {
  let echoes = 0;
  let closed = false;
  const sock = net.connect(port, "127.0.0.1");
  const timer = setInterval(() => sock.write("."), everyMs);
  sock.on("data", (d) => {
    echoes += d.length;
  });
  const end = () => {
    closed = true;
    clearInterval(timer);
  };
  sock.on("error", end);
  sock.on("close", end);
  return { echoes: () => echoes, closed: () => closed, close: () => sock.destroy() };
}

/** One datagram through a udp tunnel and its echo. */
export function udpEcho(port: number, payload: Buffer, ms = 5_000): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const s = dgram.createSocket("udp4");
    const timer = setTimeout(() => {
      s.close();
      reject(new Error(`no udp echo through ${port} within ${ms} ms`));
    }, ms);
    s.on("message", (msg) => {
      clearTimeout(timer);
      s.close();
      resolve(msg);
    });
    s.send(payload, port, "127.0.0.1");
  });
}

/** GET through frps's vhost port with the given Host header (and basic auth `user:password`). */
export async function vhostGet(
  port: number,
  host: string,
  urlPath = "/",
  auth?: string,
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.get({ host: "127.0.0.1", port, path: urlPath, headers: { host }, auth, agent: false }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (d) => {
        body += d;
      });
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.setTimeout(5_000, () => req.destroy(new Error("vhost request timed out")));
    req.on("error", reject);
  });
}

/** GET over TLS to frps's vhost https port, routed by SNI: the status, body and the certificate served. */
export function httpsGet(
  port: number,
  servername: string,
  ca: string,
): Promise<{ status: number; body: string; subject: string }> {
  return new Promise((resolve, reject) => {
    const req = https.get(
      { host: "127.0.0.1", port, servername, path: "/", headers: { host: servername }, ca, agent: false },
      (res) => {
        let body = "";
        const subject = String((res.socket as tls.TLSSocket).getPeerCertificate().subject?.CN ?? "");
        res.setEncoding("utf8");
        res.on("data", (d) => {
          body += d;
        });
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body, subject }));
      },
    );
    req.setTimeout(5_000, () => req.destroy(new Error("https request timed out")));
    req.on("error", reject);
  });
}

/** A GET of the frps dashboard API with its basic-auth credentials. */
export async function dashboard<T>(apiAddr: string, user: string, password: string, p: string): Promise<T> {
  const res = await fetch(`${apiAddr}${p}`, {
    headers: { authorization: `Basic ${Buffer.from(`${user}:${password}`).toString("base64")}` },
  });
  if (!res.ok) throw new Error(`dashboard ${p}: ${res.status}`);
  return (await res.json()) as T;
}
