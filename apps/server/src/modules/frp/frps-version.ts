/**
 * The oldest frps Burrow supports. Before 0.58 frps enforced `heartbeatTimeout` only with tcpMux
 * off, and tcpMux is on by default: a client that sends no heartbeats is never dropped there, so
 * a refused heartbeat — how Burrow cuts a locked tunnel or a banned customer off — never reaches
 * it (docs/frp.md, "Supported versions").
 */
export const MIN_FRPS_VERSION = "0.58.0";

const parts = (v: string): number[] | null => {
  const m = /^v?(\d+)\.(\d+)\.(\d+)/.exec(v.trim());
  return m ? [Number(m[1]), Number(m[2]), Number(m[3])] : null;
};

/** Why a node's frps version is not supported, or null when it is (or says no version at all). */
export function unsupportedFrps(version: string | null | undefined): string | null {
  if (!version) return null;
  const have = parts(version);
  const min = parts(MIN_FRPS_VERSION) as number[];
  if (!have) return `frps 版本 ${JSON.stringify(version)} 无法识别，支持 ${MIN_FRPS_VERSION} 及以上`;
  for (let i = 0; i < 3; i++) {
    if (have[i] > min[i]) return null;
    if (have[i] < min[i])
      return `frps ${version} 低于支持的最低版本 ${MIN_FRPS_VERSION}：该版本在默认的 tcpMux 下不检查心跳超时，锁定和封禁无法断开不发心跳的客户端，请升级 frps`;
  }
  return null;
}
