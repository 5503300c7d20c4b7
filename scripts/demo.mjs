// `npm run demo`: the whole product with a local frp node, so a new user can watch a tunnel go
// online and carry traffic. It starts Burrow on a fresh demo database (./data-demo), signs up a
// demo customer, creates a tcp tunnel on the seeded local node to a small web page of its own,
// then runs real frps and frpc (built from the Go module proxy by tools/frp/build.sh when Go is
// installed) with the frps.toml and frpc.toml Burrow generates — or, without Go, the bundled frps
// simulator. It prints a command that reaches the page through the tunnel. Ctrl-C stops all.
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
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
// The customer's "local service": a page that says where it is served from.
const page = http.createServer((req, res) => {
  res.setHeader("content-type", "text/plain; charset=utf-8");
  res.end(`Hello from behind the Burrow demo tunnel (${req.method} ${req.url})\n`);
});
await new Promise((r) => page.listen(0, "127.0.0.1", r));
const localPort = page.address().port;
const nodes = await call("GET", "/user/node", { token: userToken });
const node = (nodes.list ?? nodes)[0];
const tunnel = await call("POST", "/user/tun", {
  token: userToken,
  body: { tun_name: "demo-web", node_id: node.node_id, protocol: "tcp", local_ip: "127.0.0.1", local_port: localPort },
});
const setup = await call("GET", "/super/node/setup", { token: adminToken, query: { node_id: node.node_id } });
const frpc = await call("GET", "/user/tun/config", { token: userToken, query: { node_id: node.node_id } });
const frpsFile = path.join(dataDir, "frps.toml");
const frpcFile = path.join(dataDir, "frpc.toml");
fs.writeFileSync(frpsFile, setup.frps_toml);
fs.writeFileSync(frpcFile, frpc.toml);

// Real frp when Go can build it (tools/frp/build.sh, cached after the first time), else the simulator.
const FRP_VERSION = "v0.70.1";
const frpDir = path.join(root, ".cache/frp", FRP_VERSION);
function buildFrp() {
  if (spawnSync("go", ["version"], { stdio: "ignore" }).status !== 0) return false;
  console.log(`Building frps and frpc ${FRP_VERSION} from the Go module proxy (first time only)…`);
  return spawnSync("bash", [path.join(root, "tools/frp/build.sh"), FRP_VERSION], { stdio: "inherit" }).status === 0;
}
const real = buildFrp();
if (real) {
  const run = (bin, file) => {
    const log = fs.openSync(path.join(dataDir, `${bin}.log`), "a");
    const child = spawn(path.join(frpDir, bin), ["-c", file], {
      env: { ...process.env, TZ: "Asia/Shanghai" },
      stdio: ["ignore", log, log],
    });
    children.push(child);
    child.on("exit", (c) => stopAll(c ?? 1));
  };
  run("frps", frpsFile);
  // frpc retries its login until frps listens (loginFailExit = false in Burrow's configs)
  run("frpc", frpcFile);
} else {
  console.log("Real frp could not be built (is Go installed?): running the frps simulator instead.");
  const sim = spawn(
    process.execPath,
    ["--import", "tsx", "tools/frps-sim/src/cli.ts", "--frps", frpsFile, "--frpc", frpcFile, "--traffic-interval", "5"],
    { cwd: root, stdio: "inherit" },
  );
  children.push(sim);
  sim.on("exit", (c) => stopAll(c ?? 1));
}
await waitFor(
  async () => (await call("GET", "/user/tun", { token: userToken })).list.some((t) => t.status === 1),
  "the tunnel to connect",
);

console.log(`
  Burrow demo is running on ${base}
    customer: ${customer.phone} / ${customer.password}   (隧道列表 → ${tunnel.tun_name}, 流量统计)
    operator: ${admin.phone} / ${admin.password}   (管理后台 → 隧道管理, 节点管理, 流量统计)
  ${
    real
      ? `Real frps and frpc ${FRP_VERSION} (node "${node.name}"; logs in ${dataDir}/frps.log and frpc.log) carry the
  customer's tunnel to a small page. Try it:
    curl http://${node.host}:${tunnel.remote_port}/`
      : `A simulated frps (node "${node.name}") logged the customer's frpc in; visitors arrive every 5 s.`
  }
  Burrow polls the node every 5 s (流量统计 shows the bytes). Lock the
  tunnel as the operator: new visitors are refused at once and frpc's next heartbeat is refused.
  Ctrl-C stops everything.
`);
