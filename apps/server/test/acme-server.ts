import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import https from "node:https";
import os from "node:os";
import path from "node:path";
import { makeCert } from "./certs";
import { freePort } from "./free-port";

/**
 * A real ACME server for tests: Debian's pebble (/usr/bin/pebble) on loopback, on free ports, with
 * a generated config and a TLS certificate made here (pebble serves its directory over HTTPS only).
 * DNS-01 and HTTP-01 lookups go to the test DNS server given (`-dnsserver`); HTTP-01 validations
 * connect to the domain's address on `httpPort`. No sleeping before validations, no random bad
 * nonces, no reuse of earlier authorizations: every run takes the same steps.
 */
export interface AcmeServer {
  directoryUrl: string;
  /** PEM of the CA that signed pebble's own HTTPS certificate */
  tlsCa: string;
  /** a file holding tlsCa (for NODE_EXTRA_CA_CERTS of a server process) */
  tlsCaFile: string;
  /** the port pebble connects to for HTTP-01 validations */
  httpPort: number;
  /** PEM of the root that signs the certificates pebble issues (its management interface) */
  issuingRoot(): Promise<string>;
  /** an https agent that trusts pebble's HTTPS certificate */
  agent: https.Agent;
  stop(): Promise<void>;
}

function get(url: string, agent: https.Agent): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    https
      .get(url, { agent }, (res) => {
        let body = "";
        res.setEncoding("utf8");
        res.on("data", (c) => {
          body += c;
        });
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
      })
      .on("error", reject);
  });
}

export async function startAcmeServer(opts: { dnsServer: string; httpPort?: number }): Promise<AcmeServer> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "burrow-pebble-"));
  const ca = await makeCert({ cn: "Pebble TLS Test CA", ca: true });
  const tls = await makeCert({ cn: "localhost", names: ["localhost", "127.0.0.1"], issuer: ca });
  fs.writeFileSync(path.join(dir, "cert.pem"), tls.pem);
  fs.writeFileSync(path.join(dir, "key.pem"), tls.keyPem);
  const tlsCaFile = path.join(dir, "ca.pem");
  fs.writeFileSync(tlsCaFile, ca.pem);
  const [port, mgmt, httpPort, tlsPort] = [
    await freePort(),
    await freePort(),
    opts.httpPort ?? (await freePort()),
    await freePort(),
  ];
  fs.writeFileSync(
    path.join(dir, "pebble.json"),
    JSON.stringify({
      pebble: {
        listenAddress: `127.0.0.1:${port}`,
        managementListenAddress: `127.0.0.1:${mgmt}`,
        certificate: path.join(dir, "cert.pem"),
        privateKey: path.join(dir, "key.pem"),
        httpPort,
        tlsPort,
        ocspResponderURL: "",
        externalAccountBindingRequired: false,
      },
    }),
  );
  const child: ChildProcess = spawn(
    "/usr/bin/pebble",
    ["-config", path.join(dir, "pebble.json"), "-dnsserver", opts.dnsServer],
    {
      env: {
        ...process.env,
        PEBBLE_VA_NOSLEEP: "1",
        PEBBLE_WFE_NONCEREJECT: "0",
        PEBBLE_AUTHZREUSE: "0",
      },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  let log = "";
  child.stdout?.on("data", (c) => {
    log += c;
  });
  child.stderr?.on("data", (c) => {
    log += c;
  });
  const agent = new https.Agent({ ca: ca.pem });
  const directoryUrl = `https://127.0.0.1:${port}/dir`;
  const deadline = Date.now() + 15_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`pebble exited (${child.exitCode}):\n${log}`);
    try {
      if ((await get(directoryUrl, agent)).status === 200) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill();
      throw new Error(`pebble did not start:\n${log}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    directoryUrl,
    tlsCa: ca.pem,
    tlsCaFile,
    httpPort,
    agent,
    issuingRoot: async () => (await get(`https://127.0.0.1:${mgmt}/roots/0`, agent)).body,
    stop: async () => {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once("exit", r));
        child.kill();
        await exited;
      }
      agent.destroy();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
