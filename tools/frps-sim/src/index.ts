/** @burrow/frps-sim: a simulated frps for tests, benches and demos (frp-protocol.md §6). */
export { type Dashboard, startDashboard } from "./dashboard";
export { FrpcClient, type FrpcClientOptions, type FrpcConfig, type ProxyState, parseFrpcConfig } from "./frpc";
export {
  type DashboardScript,
  type DashboardScripter,
  FrpError,
  FrpsSim,
  type FrpsSimOptions,
  type HeldConn,
  type LoginRequest,
  type NewProxyContent,
  type ProxyConfig,
  type ProxyStatsEntry,
  proxyContent,
  SIM_FRP_VERSION,
  SimSession,
} from "./frps";
export { frpsOptionsFromToml } from "./frps-config";
export {
  callPlugins,
  type HttpPlugin,
  PLUGIN_OPS,
  type PluginExchange,
  type PluginOp,
  type PluginOutcome,
  pluginUrl,
  randomHex16,
} from "./plugin-client";
export {
  checkClientConfig,
  checkServerConfig,
  FrpConfigError,
  type FrpKeySet,
  frpKeySet,
} from "./strict-config";
export { parseToml, TomlError, type TomlTable, type TomlValue } from "./toml";
