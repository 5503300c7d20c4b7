import { FRP_PLUGIN_OPS, NetworkType, type NodeListen, type NodeSetup } from "@burrow/contract";
import { shq } from "../../shared/quote";
import { tomlLine, tomlStringArray } from "../../shared/toml";

/** The frp release the generated install commands use (frp-protocol.md was written against it). */
export const FRP_VERSION = "0.70.1";

/**
 * frps's heartbeatTimeout (s): two of frpc's 30 s heartbeats. A client that turned its heartbeats
 * off is dropped this long after its last accepted heartbeat or login (frps ≥ 0.58, see
 * frp/frps-version.ts), logs in again and meets Login's and NewProxy's checks: the bound of a lock,
 * a ban or spent quota for a client that ignores them (docs/frp.md). One late heartbeat is
 * tolerated; 90 s (frp's default) gave such a client three times as long.
 */
export const FRPS_HEARTBEAT_TIMEOUT = 60;

/** The node fields the generated frps set-up needs. */
export interface SetupNode extends NodeListen {
  node_id: number;
  name: string;
  net_type_id: number;
  api_addr: string;
  api_user: string;
  api_password: string;
  plugin_secret: string;
  /** 1: frps calls the node agent on 127.0.0.1 (docs/deploy.md) */
  agent_mode: number;
}

/** Where the node agent answers frps's plugin calls on the node (its AGENT_PLUGIN_PORT default). */
export const AGENT_PLUGIN_PORT = 7300;
/** Where the console serves the agent's bundle (downloads module). */
export const AGENT_DOWNLOAD_PATH = "/download/agent/burrow-agent.mjs";

/**
 * The plugin endpoint for a node. The secret is a path segment because frps appends its own
 * `?op=…&version=…` to the configured path (frp-protocol.md §1.2).
 */
export function pluginPath(node: { node_id: number; plugin_secret: string }, basePath = ""): string {
  return `${basePath.replace(/\/+$/, "")}/api/frp/plugin/${node.node_id}/${encodeURIComponent(node.plugin_secret)}`;
}

/** Where the frps dashboard listens, from the api_addr Burrow polls. */
function webServerOf(apiAddr: string, agent: boolean): { addr: string; port: number; tls: boolean } {
  const url = new URL(apiAddr);
  const tls = url.protocol === "https:";
  const port = url.port ? Number(url.port) : tls ? 443 : 80;
  const local = agent || url.hostname === "127.0.0.1" || url.hostname === "localhost";
  // Direct mode: Burrow must reach the dashboard from outside unless both run on one machine
  // (firewall it to Burrow). Agent mode: only the agent beside frps reads it, on loopback.
  return { addr: local ? "127.0.0.1" : "0.0.0.0", port, tls };
}

/**
 * The complete frps.toml for a node: ports, allowPorts, vhost and subdomain settings, the
 * dashboard with its credentials, and the `[[httpPlugins]]` entry with all six ops.
 * @param publicUrl Burrow's base URL as frps reaches it (PUBLIC_URL or the operator's origin)
 */
export function buildFrpsToml(node: SetupNode, publicUrl: string): string {
  const base = new URL(publicUrl);
  const agent = node.agent_mode === 1;
  const web = webServerOf(node.api_addr, agent);
  const lines = [
    `# frps.toml for Burrow node ${JSON.stringify(node.name)} (#${node.node_id}), frp ${FRP_VERSION}.`,
    "# Run frps with TZ=Asia/Shanghai: Burrow counts daily traffic by Shanghai days and frps resets",
    '# its per-proxy "today" counters at its local midnight.',
    ...tomlLine("bindAddr", "0.0.0.0"),
    ...tomlLine("bindPort", node.bind_port),
    ...tomlLine("vhostHTTPPort", node.vhost_http_port),
    ...tomlLine("vhostHTTPSPort", node.vhost_https_port),
    ...tomlLine("subDomainHost", node.subdomain_host),
    `allowPorts = [{ start = ${node.port_min}, end = ${node.port_max} }]`,
    ...tomlLine("detailedErrorsToClient", true),
    "# Burrow's frpc configs send a heartbeat every 30 s; a client without heartbeats is dropped after",
    `# ${FRPS_HEARTBEAT_TIMEOUT} s, because a rejected heartbeat is how Burrow cuts off banned users and locked tunnels.`,
    ...tomlLine("transport.heartbeatTimeout", FRPS_HEARTBEAT_TIMEOUT),
    "",
    agent
      ? "# Dashboard API on loopback: the Burrow node agent beside frps reads it and sends the counters home."
      : "# Dashboard API, polled by Burrow for node health and per-proxy traffic; allow only Burrow to reach it.",
    ...tomlLine("webServer.addr", web.addr),
    ...tomlLine("webServer.port", web.port),
    ...tomlLine("webServer.user", node.api_user),
    ...tomlLine("webServer.password", node.api_password),
    ...(web.tls
      ? ['webServer.tls.certFile = "/etc/frp/dashboard.crt"', 'webServer.tls.keyFile = "/etc/frp/dashboard.key"']
      : []),
    "",
    ...(agent
      ? [
          "# The Burrow node agent on this machine decides every login, proxy, heartbeat and connection",
          "# from its copy of the console's state (frps fails closed while the agent is down: systemd restarts it).",
          "[[httpPlugins]]",
          ...tomlLine("name", "burrow-agent"),
          ...tomlLine("addr", `127.0.0.1:${AGENT_PLUGIN_PORT}`),
          ...tomlLine("path", "/frp/plugin"),
          `ops = ${tomlStringArray(FRP_PLUGIN_OPS)}`,
        ]
      : [
          "# Burrow decides every login, proxy, heartbeat and connection.",
          "[[httpPlugins]]",
          ...tomlLine("name", "burrow"),
          ...tomlLine("addr", base.origin),
          ...tomlLine("path", pluginPath(node, base.pathname)),
          `ops = ${tomlStringArray(FRP_PLUGIN_OPS)}`,
          // frps skips certificate checks unless told otherwise (frp-protocol.md §1.1).
          ...(base.protocol === "https:" ? tomlLine("tlsVerify", true) : []),
        ]),
    "",
  ];
  return lines.join("\n");
}

/** A shell here-document writing `body` to `file` (quoted marker: no expansion inside). */
const heredoc = (file: string, body: string) => `cat > ${file} <<'BURROW_EOF'\n${body.trimEnd()}\nBURROW_EOF`;

function dockerRun(network: string, extra: string[] = []): string {
  return [
    "docker rm -f burrow-frps >/dev/null 2>&1 || true",
    [
      "docker run -d --name burrow-frps --restart unless-stopped",
      `  --network ${network}${extra.length ? ` ${extra.join(" ")}` : ""}`,
      // The image has no tzdata: give it the host's Shanghai zone file as its local time.
      "  -v /usr/share/zoneinfo/Asia/Shanghai:/etc/localtime:ro",
      "  -v /etc/frp/frps.toml:/etc/frp/frps.toml:ro",
      `  fatedier/frps:v${FRP_VERSION} -c /etc/frp/frps.toml`,
    ].join(" \\\n"),
  ].join("\n");
}

function vlanScript(node: SetupNode, driver: "ipvlan" | "macvlan", toml: string): string {
  const ipv4 = /^\d+\.\d+\.\d+\.\d+$/.test(node.host);
  const prefix = ipv4 ? node.host.split(".").slice(0, 3).join(".") : "192.0.2";
  const net = `burrow-${driver}`;
  return [
    "#!/bin/sh",
    `# Burrow node ${JSON.stringify(node.name)}: frps ${FRP_VERSION} in Docker on a ${driver} network, the container`,
    "# owning the node's public address. Check the four values below against your network first.",
    "set -e",
    "PARENT_IF=eth0",
    `NODE_IP=${ipv4 ? node.host : "192.0.2.10"}`,
    `SUBNET=${prefix}.0/24`,
    `GATEWAY=${prefix}.1`,
    "mkdir -p /etc/frp",
    heredoc("/etc/frp/frps.toml", toml),
    `docker network inspect ${net} >/dev/null 2>&1 || docker network create -d ${driver} \\`,
    `  -o parent="$PARENT_IF"${driver === "ipvlan" ? " -o ipvlan_mode=l2" : ""} --subnet "$SUBNET" --gateway "$GATEWAY" ${net}`,
    dockerRun(net, ['--ip "$NODE_IP"']),
    "",
  ].join("\n");
}

/**
 * Install scripts for every variant: Docker with host, ipvlan or macvlan networking, or the
 * plain binary under systemd. Each writes frps.toml and starts frps.
 */
export function buildInstallScripts(node: SetupNode, toml: string): NodeSetup["install"] {
  const host = [
    "#!/bin/sh",
    `# Burrow node ${JSON.stringify(node.name)}: frps ${FRP_VERSION} in Docker with host networking.`,
    "set -e",
    "mkdir -p /etc/frp",
    heredoc("/etc/frp/frps.toml", toml),
    dockerRun("host"),
    "",
  ].join("\n");
  const unit = [
    "[Unit]",
    `Description=frps for Burrow node ${node.name}`,
    "After=network-online.target",
    "Wants=network-online.target",
    "",
    "[Service]",
    "Environment=TZ=Asia/Shanghai",
    "ExecStart=/usr/local/bin/frps -c /etc/frp/frps.toml",
    "Restart=always",
    "RestartSec=5",
    "LimitNOFILE=1048576",
    "",
    "[Install]",
    "WantedBy=multi-user.target",
  ].join("\n");
  const binary = [
    "#!/bin/sh",
    `# Burrow node ${JSON.stringify(node.name)}: the frps ${FRP_VERSION} binary under systemd.`,
    "set -e",
    'case "$(uname -m)" in x86_64) ARCH=amd64 ;; aarch64|arm64) ARCH=arm64 ;; armv7l) ARCH=arm ;; *) ARCH=$(uname -m) ;; esac',
    `PKG="frp_${FRP_VERSION}_linux_$ARCH"`,
    `cd /tmp && curl -fsSL -o "$PKG.tar.gz" "https://github.com/fatedier/frp/releases/download/v${FRP_VERSION}/$PKG.tar.gz"`,
    'tar -xzf "$PKG.tar.gz" && install -m 755 "$PKG/frps" /usr/local/bin/frps',
    "mkdir -p /etc/frp",
    heredoc("/etc/frp/frps.toml", toml),
    heredoc("/etc/systemd/system/burrow-frps.service", unit),
    "systemctl daemon-reload && systemctl enable --now burrow-frps && systemctl restart burrow-frps",
    "",
  ].join("\n");
  return {
    host,
    ipvlan: vlanScript(node, "ipvlan", toml),
    macvlan: vlanScript(node, "macvlan", toml),
    binary,
  };
}

/** Which install variant fits the node's network type (other types run the plain binary). */
export function recommendedInstall(netTypeId: number): NodeSetup["recommended"] {
  if (netTypeId === NetworkType.Host) return "host";
  if (netTypeId === NetworkType.IpVlan) return "ipvlan";
  if (netTypeId === NetworkType.MacVlan) return "macvlan";
  return "binary";
}

/**
 * The node agent's one-line installer: downloads the agent bundle from the console, writes
 * /etc/burrow-agent.env (the console's URL, the node's id and secret, the dashboard on loopback)
 * readable by root only, and the burrow-agent systemd unit (Restart=always), then starts it. It
 * runs on the distribution's Node.js (22 or later).
 * @param consoleUrl the console's configured PUBLIC_URL (never a request's Host: the node would
 *   hand its secret to whatever address a request claimed)
 */
export function buildAgentInstall(node: SetupNode, consoleUrl: string): string {
  const base = consoleUrl.replace(/\/+$/, "");
  const web = webServerOf(node.api_addr, true);
  const env = [
    `CONSOLE_URL=${base}`,
    `NODE_ID=${node.node_id}`,
    `NODE_SECRET=${node.plugin_secret}`,
    `AGENT_PLUGIN_PORT=${AGENT_PLUGIN_PORT}`,
    `FRPS_DASHBOARD_URL=${web.tls ? "https" : "http"}://127.0.0.1:${web.port}`,
    `FRPS_DASHBOARD_USER=${node.api_user}`,
    `FRPS_DASHBOARD_PASSWORD=${node.api_password}`,
  ];
  const unit = [
    "[Unit]",
    `Description=Burrow node agent (node ${node.node_id})`,
    "After=network-online.target",
    "Wants=network-online.target",
    "Before=burrow-frps.service",
    "[Service]",
    "EnvironmentFile=/etc/burrow-agent.env",
    "Environment=TZ=Asia/Shanghai",
    "StateDirectory=burrow-agent",
    "ExecStart=/usr/bin/env node /usr/local/lib/burrow-agent/burrow-agent.mjs",
    "Restart=always",
    "RestartSec=1",
    "[Install]",
    "WantedBy=multi-user.target",
  ];
  const lines = (file: string, body: string[]) => `printf '%s\\n' ${body.map(shq).join(" ")} > ${file}`;
  return [
    "set -e",
    "mkdir -p /usr/local/lib/burrow-agent",
    `curl -fsSL ${shq(`${base}${AGENT_DOWNLOAD_PATH}`)} -o /usr/local/lib/burrow-agent/burrow-agent.mjs`,
    "umask 077",
    lines("/etc/burrow-agent.env", env),
    "umask 022",
    lines("/etc/systemd/system/burrow-agent.service", unit),
    "systemctl daemon-reload",
    "systemctl enable --now burrow-agent",
    "systemctl restart burrow-agent",
  ].join(" && ");
}

/** Everything the node set-up page shows; `consoleUrl` is PUBLIC_URL (null when unset). */
export function buildNodeSetup(node: SetupNode, publicUrl: string, consoleUrl: string | null): NodeSetup {
  const toml = buildFrpsToml(node, publicUrl);
  const base = new URL(publicUrl);
  return {
    node_id: node.node_id,
    plugin_url: `${base.origin}${pluginPath(node, base.pathname)}`,
    frps_toml: toml,
    install: buildInstallScripts(node, toml),
    recommended: recommendedInstall(node.net_type_id),
    frp_version: FRP_VERSION,
    agent_mode: node.agent_mode,
    agent_install: consoleUrl ? buildAgentInstall(node, consoleUrl) : null,
    agent_missing: consoleUrl
      ? null
      : "请先设置 PUBLIC_URL（控制台的公网地址）：节点代理从它连接控制台，不会采用浏览器请求中的地址",
  };
}
