/**
 * The agent's configuration, from the environment (the installer writes /etc/burrow-agent.env).
 * Every variable is checked at start, and a bad one stops the agent with a message naming it.
 */
import path from "node:path";
import type { GracePolicy } from "@burrow/frp-decision";

export interface AgentConfig {
  consoleUrl: string;
  nodeId: number;
  nodeSecret: string;
  pluginPort: number;
  stateDir: string;
  graceMs: number;
  gracePolicy: GracePolicy;
  /** null: no dashboard configured, no counters sent */
  dashboard: { url: string; user: string; password: string } | null;
  dashboardIntervalMs: number;
  lookupTimeoutMs: number;
  /** the journal's bound on the node's disk (see journal.ts for what goes when it is reached) */
  journalMaxBytes: number;
}

export class ConfigError extends Error {}

type Env = Record<string, string | undefined>;

function required(env: Env, name: string): string {
  const v = env[name]?.trim();
  if (!v) throw new ConfigError(`${name} is required`);
  return v;
}

function int(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name]?.trim();
  if (!raw) return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min || n > max)
    throw new ConfigError(`${name} must be a whole number from ${min} to ${max}, got "${raw}"`);
  return n;
}

function httpUrl(name: string, raw: string, loopbackOnly: boolean): string {
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    throw new ConfigError(`${name} must be a URL like https://console.example.com, got "${raw}"`);
  }
  if (u.protocol !== "http:" && u.protocol !== "https:") throw new ConfigError(`${name} must be http:// or https://`);
  if (loopbackOnly && !["127.0.0.1", "localhost", "[::1]"].includes(u.hostname))
    throw new ConfigError(`${name} must be on 127.0.0.1: the dashboard is never exposed off the node`);
  return raw.replace(/\/+$/, "");
}

export function loadConfig(env: Env): AgentConfig {
  const consoleUrl = httpUrl("CONSOLE_URL", required(env, "CONSOLE_URL"), false);
  const nodeIdRaw = required(env, "NODE_ID");
  const nodeId = Number(nodeIdRaw);
  if (!Number.isSafeInteger(nodeId) || nodeId <= 0)
    throw new ConfigError(`NODE_ID must be the node's id (a positive whole number), got "${nodeIdRaw}"`);
  const nodeSecret = required(env, "NODE_SECRET");
  if (/\s/.test(nodeSecret) || nodeSecret.length > 200)
    throw new ConfigError("NODE_SECRET must be the node's plugin secret from the console (no spaces)");
  const stateDir = path.resolve(env.AGENT_STATE_DIR?.trim() || "/var/lib/burrow-agent");
  const policy = (env.AGENT_GRACE_POLICY?.trim() || "refuse") as GracePolicy;
  if (policy !== "keep" && policy !== "refuse")
    throw new ConfigError(`AGENT_GRACE_POLICY must be "keep" or "refuse", got "${env.AGENT_GRACE_POLICY}"`);
  const dashUrl = env.FRPS_DASHBOARD_URL?.trim();
  let dashboard: AgentConfig["dashboard"] = null;
  if (dashUrl) {
    dashboard = {
      url: httpUrl("FRPS_DASHBOARD_URL", dashUrl, true),
      user: required(env, "FRPS_DASHBOARD_USER"),
      password: required(env, "FRPS_DASHBOARD_PASSWORD"),
    };
  }
  return {
    consoleUrl,
    nodeId,
    nodeSecret,
    pluginPort: int(env, "AGENT_PLUGIN_PORT", 7300, 1, 65535),
    stateDir,
    graceMs: int(env, "AGENT_GRACE_MINUTES", 30, 0, 7 * 24 * 60) * 60_000,
    gracePolicy: policy,
    dashboard,
    dashboardIntervalMs: int(env, "AGENT_DASHBOARD_SECONDS", 30, 1, 3600) * 1000,
    lookupTimeoutMs: int(env, "AGENT_LOOKUP_TIMEOUT_MS", 2000, 100, 30_000),
    journalMaxBytes: int(env, "AGENT_JOURNAL_MAX_MB", 256, 1, 100_000) * 1024 * 1024,
  };
}
