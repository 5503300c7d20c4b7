import { type FrpsSimOptions, SIM_FRP_VERSION } from "./frps";
import { type HttpPlugin, PLUGIN_OPS, type PluginOp, pluginUrl } from "./plugin-client";
import { checkServerConfig } from "./strict-config";
import { parseToml, type TomlTable, type TomlValue } from "./toml";

const table = (v: TomlValue | undefined): TomlTable =>
  v && typeof v === "object" && !Array.isArray(v) ? (v as TomlTable) : {};
const num = (v: TomlValue | undefined): number | undefined => (typeof v === "number" ? v : undefined);
const str = (v: TomlValue | undefined): string | undefined => (typeof v === "string" ? v : undefined);

/**
 * Simulator options from an frps.toml (v1 format): ports, subDomainHost, allowPorts, auth.token,
 * webServer and `[[httpPlugins]]` (invalid ops are refused, as ValidateServerConfig does). Loaded
 * as frps `version` does: strictly from 0.55.0, a key frps does not know refused with frps's own
 * message (FrpConfigError, strict-config.ts).
 */
export function frpsOptionsFromToml(text: string, version = SIM_FRP_VERSION): FrpsSimOptions {
  const t = parseToml(text);
  checkServerConfig(t, version);
  const web = table(t.webServer);
  const plugins: HttpPlugin[] = (Array.isArray(t.httpPlugins) ? t.httpPlugins : []).map((raw) => {
    const p = table(raw);
    const ops = (Array.isArray(p.ops) ? p.ops : []).map(String);
    for (const op of ops)
      if (!(PLUGIN_OPS as readonly string[]).includes(op)) throw new Error(`invalid http plugin ops: ${op}`);
    return { name: str(p.name), url: pluginUrl(str(p.addr) ?? "", str(p.path) ?? ""), ops: ops as PluginOp[] };
  });
  const allowPorts = (Array.isArray(t.allowPorts) ? t.allowPorts : []).map((raw) => {
    const a = table(raw);
    const single = num(a.single);
    return single !== undefined ? { single } : { start: num(a.start) ?? 1, end: num(a.end) ?? 65535 };
  });
  return {
    bindPort: num(t.bindPort) ?? 7000,
    vhostHTTPPort: num(t.vhostHTTPPort),
    vhostHTTPSPort: num(t.vhostHTTPSPort),
    subDomainHost: str(t.subDomainHost),
    allowPorts,
    maxPortsPerClient: num(t.maxPortsPerClient),
    authToken: str(table(t.auth).token),
    detailedErrorsToClient: t.detailedErrorsToClient !== false,
    heartbeatTimeout: num(table(t.transport).heartbeatTimeout),
    tcpMux: table(t.transport).tcpMux !== false,
    plugins,
    webServer:
      num(web.port) !== undefined
        ? { addr: str(web.addr) ?? "127.0.0.1", port: num(web.port), user: str(web.user), password: str(web.password) }
        : undefined,
  };
}
