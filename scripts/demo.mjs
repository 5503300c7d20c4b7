// `npm run demo`: the whole product with a simulated frp node, so a new user can watch a tunnel
// go online and carry traffic without a real server. It starts Burrow on a fresh demo database
// (./data-demo), signs up a demo customer, creates a tcp tunnel on the seeded local node, then
// runs the frps simulator with the frps.toml and frpc.toml Burrow generates. Ctrl-C stops all.
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
const port = Number(process.env.PORT ?? 8080);
const base = `http://127.0.0.1:${port}`;
const dataDir = path.resolve(root, process.env.DEMO_DATA_DIR ?? "data-demo");
const admin = { phone: "13800000000", password: "demo-admin-123" };
const customer = { phone: "13900000001", password: "demo-user-123" };
const children = [];
let stdout = "";

function stopAll(code = 0) {
  for (const c of children) c.kill("SIGTERM");
  setTimeout(() => process.exit(code), 500).unref();
}
process.on("SIGINT", () => stopAll(0));
process.on("SIGTERM", () => stopAll(0));

async function call(method, url, { token, body, query } = {}) {
  const u = new URL(`/api${url}`, base);
  for (const [k, v] of Object.entries(query ?? {})) u.searchParams.set(k, String(v));
  const res = await fetch(u, {
    method,
    headers: {
      ...(body ? { "content-type": "application/json" } : {}),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: body ? JSON.stringify(body) : undefined,
  });
  const env = await res.json();
  if (env.code !== "SUCCESS") throw new Error(`${method} ${url}: ${env.code} ${env.msg}`);
  return env.data;
}

async function waitFor(fn, what, ms = 60_000) {
  const until = Date.now() + ms;
  for (;;) {
    try {
      const v = await fn();
      if (v) return v;
    } catch {
      // not ready yet
    }
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 300));
  }
}

fs.rmSync(dataDir, { recursive: true, force: true });
fs.mkdirSync(dataDir, { recursive: true });
const server = spawn(process.execPath, [path.join(root, "scripts/start.mjs")], {
  cwd: root,
  env: {
    ...process.env,
    PORT: String(port),
    DATA_DIR: dataDir,
    ADMIN_PHONE: admin.phone,
    ADMIN_PASSWORD: admin.password,
    PUBLIC_URL: process.env.PUBLIC_URL ?? `http://localhost:${port}`,
    FRP_POLL_INTERVAL: "5",
    LOG_LEVEL: process.env.LOG_LEVEL ?? "warn",
  },
  stdio: ["ignore", "pipe", "inherit"],
});
children.push(server);
server.stdout.on("data", (b) => {
  stdout += b.toString();
  process.stdout.write(b);
});
server.on("exit", (code) => stopAll(code ?? 1));

await waitFor(() => fetch(`${base}/api/healthz`).then((r) => r.ok), "the server", 180_000);
const adminToken = (await call("POST", "/auth/login", { body: admin })).token;

await call("POST", "/auth/sms", { body: { phone: customer.phone, scene: "register" } });
const code = await waitFor(
  () => stdout.match(new RegExp(`\\[sms\\] to=${customer.phone} code=(\\d{6})`))?.[1],
  "the SMS code",
);
const userToken = (await call("POST", "/auth/register", { body: { ...customer, code } })).token;

// Tunnels need a verified identity: the development sandbox provider verifies this sample at once.
await call("POST", "/user/verify", {
  token: userToken,
  body: { real_name: "张演示", id_number: "11010519491231002X" },
});
const nodes = await call("GET", "/user/node", { token: userToken });
const node = (nodes.list ?? nodes)[0];
const tunnel = await call("POST", "/user/tun", {
  token: userToken,
  body: { tun_name: "demo-ssh", node_id: node.node_id, protocol: "tcp", local_ip: "127.0.0.1", local_port: 22 },
});
const setup = await call("GET", "/super/node/setup", { token: adminToken, query: { node_id: node.node_id } });
const frpc = await call("GET", "/user/tun/config", { token: userToken, query: { node_id: node.node_id } });
const frpsFile = path.join(dataDir, "frps.toml");
const frpcFile = path.join(dataDir, "frpc.toml");
fs.writeFileSync(frpsFile, setup.frps_toml);
fs.writeFileSync(frpcFile, frpc.toml);

const sim = spawn(
  process.execPath,
  ["--import", "tsx", "tools/frps-sim/src/cli.ts", "--frps", frpsFile, "--frpc", frpcFile, "--traffic-interval", "5"],
  { cwd: root, stdio: "inherit" },
);
children.push(sim);
sim.on("exit", (c) => stopAll(c ?? 1));

console.log(`
  Burrow demo is running on ${base}
    customer: ${customer.phone} / ${customer.password}   (隧道列表 → ${tunnel.tun_name}, 流量统计)
    operator: ${admin.phone} / ${admin.password}   (管理后台 → 隧道管理, 节点管理, 流量统计)
  A simulated frps (node "${node.name}") logged the customer's frpc in; visitors arrive every 5 s,
  and Burrow polls the node every 5 s. Lock the tunnel as the operator and watch the next heartbeat
  be refused. Ctrl-C stops everything.
`);
