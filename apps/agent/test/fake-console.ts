/**
 * A stand-in for the console's side of the agent protocol (docs/agent.md), for the agent's own
 * tests: it streams what the test pushes, answers lookups as told, and applies events exactly
 * once per stream (seq ≤ cursor skipped), as the console does.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import {
  type AgentEvent,
  agentAuthorization,
  type EventsBody,
  type NodeWire,
  type StreamLine,
  type UserWire,
} from "@burrow/frp-decision";
import type { AgentConfig } from "../src/config";

export const NODE_ID = 7;
export const SECRET = "node-secret-0123456789abcdef";

export const node = (over: Partial<NodeWire> = {}): NodeWire => ({
  node_id: NODE_ID,
  status: 1,
  level_id: 1,
  level_rank: 0,
  bandwidth: 0,
  ...over,
});

/** A customer with one tcp tunnel on the node, on a usable plan. */
export function customer(uid: number, port: number, over: Partial<UserWire> = {}): UserWire {
  return {
    uid,
    active: true,
    token: `tok-${uid}-0123456789`,
    limits: {
      plan_id: 1,
      plan_name: "免费版",
      level: 0,
      level_id: 1,
      bandwidth: 0,
      tunnel_limit: 5,
      tunnel_peer_port_limit: 5,
      traffic_quota: 1e10,
      traffic_used: 0,
      end_at: null,
      usable: true,
    },
    tunnels: [
      {
        tun_id: uid * 10,
        uid,
        node_id: NODE_ID,
        tun_name: `ssh${uid}`,
        protocol: "tcp",
        remote_port: port,
        custom_domains: [],
        subdomain: null,
        bandwidth: 0,
        enabled: true,
        status: 2,
        banned_reason: null,
        run_id: null,
        stale_closes: 0,
      },
    ],
    kicks: [],
    domains: [],
    ...over,
  };
}

export interface FakeConsole {
  url: string;
  users: Map<number, UserWire>;
  nodeWire: NodeWire;
  /** lookup behaviour: answer from `users`, or never answer */
  lookupHangs: boolean;
  /** events answered 503 (console down for the journal) */
  eventsDown: boolean;
  /** the next events request is applied but its answer lost (the connection drops) */
  loseNextAnswer: boolean;
  /** applied events, once each, in order */
  applied: AgentEvent[];
  /** every events request's seqs (to see resends) */
  received: number[][];
  lookups: number[];
  streams: number;
  push(line: StreamLine): void;
  /** ends the open streams (the agent reconnects) */
  drop(): void;
  close(): Promise<void>;
}

export async function fakeConsole(port = 0): Promise<FakeConsole> {
  const open = new Set<http.ServerResponse>();
  const cursors = new Map<string, number>();
  const f: FakeConsole = {
    url: "",
    users: new Map(),
    nodeWire: node(),
    lookupHangs: false,
    eventsDown: false,
    loseNextAnswer: false,
    applied: [],
    received: [],
    lookups: [],
    streams: 0,
    push(line) {
      for (const res of open) res.write(`${JSON.stringify(line)}\n`);
    },
    drop() {
      for (const res of open) res.destroy();
      open.clear();
    },
    close: () =>
      new Promise((r) => {
        f.drop();
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
  const auth = agentAuthorization(NODE_ID, SECRET);
  const server = http.createServer((req, res) => {
    if (req.headers.authorization !== auth) {
      res.writeHead(401).end('{"code":401,"msg":"bad node credential"}');
      return;
    }
    if (req.method === "GET" && req.url === "/api/agent/stream") {
      f.streams++;
      res.writeHead(200, { "content-type": "application/x-ndjson" });
      res.write(
        `${JSON.stringify({ type: "snapshot", node: f.nodeWire, users: [...f.users.values()], at: Date.now() })}\n`,
      );
      open.add(res);
      res.on("close", () => open.delete(res));
      return;
    }
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const body = JSON.parse(Buffer.concat(chunks).toString() || "{}");
      if (req.url === "/api/agent/lookup") {
        f.lookups.push(body.uid);
        if (f.lookupHangs) return;
        // as the console: a customer only for the token the client presented
        const user = f.users.get(body.uid);
        res.writeHead(200, { "content-type": "application/json" });
        res.end(JSON.stringify({ code: "SUCCESS", msg: "", data: { user: user?.token === body.token ? user : null } }));
        return;
      }
      if (req.url === "/api/agent/events") {
        if (f.eventsDown) {
          res.writeHead(503).end("{}");
          return;
        }
        const b = body as EventsBody;
        f.received.push(b.events.map((e) => e.seq));
        let cursor = cursors.get(b.stream) ?? 0;
        for (const e of b.events) {
          if (e.seq <= cursor) continue;
          f.applied.push(e);
          cursor = e.seq;
        }
        cursors.set(b.stream, cursor);
        if (f.loseNextAnswer) {
          f.loseNextAnswer = false;
          res.destroy();
          return;
        }
        res.writeHead(200, { "content-type": "application/json" });
        res.end(JSON.stringify({ code: "SUCCESS", msg: "", data: { acked: cursor } }));
        return;
      }
      res.writeHead(404).end("{}");
    });
  });
  await new Promise<void>((r) => server.listen(port, "127.0.0.1", () => r()));
  f.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return f;
}

/** An agent's configuration for tests: the console's URL, this node, a loopback port of the system's choice. */
export function agentConfig(consoleUrl: string, stateDir: string, over: Partial<AgentConfig> = {}): AgentConfig {
  return {
    consoleUrl,
    nodeId: NODE_ID,
    nodeSecret: SECRET,
    pluginPort: 0,
    stateDir,
    graceMs: 30 * 60_000,
    gracePolicy: "refuse",
    dashboard: null,
    dashboardIntervalMs: 30_000,
    lookupTimeoutMs: 2000,
    journalMaxBytes: 1024 * 1024,
    ...over,
  };
}

/** Polls `f` until it is truthy (tests wait on the agent's background work without fixed sleeps). */
export async function until<T>(f: () => T | Promise<T>, ms = 5000, what = "condition"): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await f();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** One frps plugin call to the agent. */
export async function plugin(port: number, op: string, content: unknown) {
  const res = await fetch(`http://127.0.0.1:${port}/frp/plugin?version=0.1.0&op=${op}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ version: "0.1.0", op, content }),
  });
  return {
    status: res.status,
    body: (await res.json()) as { reject: boolean; reject_reason?: string; content?: unknown },
  };
}

export const RUN = "0123456789abcdef";
export const userInfo = (u: UserWire, run = RUN) => ({ user: `u_${u.uid}`, metas: { token: u.token }, run_id: run });
export const login = (u: UserWire, token = u.token) => ({
  version: "0.61.2",
  user: `u_${u.uid}`,
  metas: { token },
  run_id: RUN,
  timestamp: 1,
  privilege_key: "x",
  pool_count: 1,
});
export const newProxy = (u: UserWire, run = RUN) => ({
  user: userInfo(u, run),
  proxy_name: `u_${u.uid}.t_${u.tunnels[0].tun_id}`,
  proxy_type: "tcp",
  remote_port: u.tunnels[0].remote_port,
});
export const visitor = (u: UserWire) => ({
  user: userInfo(u),
  proxy_name: `u_${u.uid}.t_${u.tunnels[0].tun_id}`,
  proxy_type: "tcp",
  remote_addr: "198.51.100.4:51000",
});
