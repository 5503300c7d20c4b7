/**
 * What the frp plugin decides over and hands its learning to. The console implements these with
 * its database-backed cache and write-behind writer; the node agent with its streamed copy and
 * durable journal.
 */
import type { PluginDecisionKind } from "@burrow/contract";
import type { CloseOutcome, NodeEntry, TunnelEntry, UserEntry } from "./entries";
import type { ShieldBanDecision } from "./shield";

/** A value, or a promise of one when it has to be loaded. */
export type Maybe<T> = T | Promise<T>;

/** The decision state the plugin reads (and updates a hold in, on NewProxy and CloseProxy). */
export interface DecisionState {
  /** the node, or null when it does not exist */
  node(nodeId: number): Maybe<NodeEntry | null>;
  /** the user with plan limits and tunnels, or null when there is no such user */
  user(uid: number): Maybe<UserEntry | null>;
  /** rank of a store level (plan_levels.level); unknown levels rank 0 */
  levelRank(levelId: number): Maybe<number>;
  /** a NewProxy of runId was allowed as the tunnel's holder (or its earlier proxy's close is still to come) */
  proxyOpened(t: TunnelEntry, runId: string): void;
  /** a CloseProxy of runId: what it did to the hold */
  proxyClosed(t: TunnelEntry, runId: string): CloseOutcome;
}

/** One NewUserConn frps announced. */
export interface ConnRecord {
  tun_id: number;
  uid: number;
  node_id: number;
  proxy_type: string;
  /** ip:port as frps sends it */
  remote_addr: string;
  /** epoch milliseconds */
  at: number;
}

/** The visitor's IP from frps's "ip:port" ("[v6]:port" for IPv6). */
export function visitorIp(addr: string): string {
  if (addr.startsWith("[")) {
    const end = addr.indexOf("]");
    if (end > 1 && (end === addr.length - 1 || addr[end + 1] === ":")) return addr.slice(1, end);
  }
  const colon = addr.lastIndexOf(":");
  return colon > 0 && addr.indexOf(":") === colon ? addr.slice(0, colon) : addr;
}

/** Where the plugin hands what it learns (holds, releases, visitor connections, 连接诊断 decisions). */
export interface DecisionWriter {
  online(tunId: number, uid: number, runId: string): void;
  offline(tunId: number, uid: number, runId: string, announce: boolean): void;
  conn(c: ConnRecord): void;
  /** a decision about a tunnel (tunId 0: about the user's sessions on the node) and the reason frpc was sent */
  decision(tunId: number, uid: number, nodeId: number, kind: PluginDecisionKind, reason: string): void;
  /** 访客防护: the ban rule banned a visitor (recorded for the ban list and the other processes) */
  ban?(b: ShieldBanDecision): void;
  /** an allowed Login, with the client's version and address */
  login(uid: number, nodeId: number, version: string | undefined, address: string | undefined): void;
}

/** The plugin's log (pino's Logger fits). */
export interface DecisionLog {
  debug(obj: object, msg: string): void;
}
