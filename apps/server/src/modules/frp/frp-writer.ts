import type { TunnelEventKind } from "@burrow/contract";
import { type ConnRecord, type DecisionWriter, type ShieldBanDecision, visitorIp } from "@burrow/frp-decision";
import { type Kysely, sql } from "kysely";
import type { AppContext } from "../../context";
import { isPostgres, sqliteWorker } from "../../db/dialect";
import type { DB } from "../../db/schema";
import { nowIso } from "../../shared/time";
import { transact } from "../../shared/tx";
import { tunnelsOffline, tunnelsOnline } from "../tunnels/sessions";
import { recordShieldBans } from "../tunnels/shield";
import { loginReason, recordTunnelEvents, type TunnelEventInput } from "../tunnels/tunnel-events";

/**
 * What a session did to one tunnel's proxy, `n` times in a row: opened it (a NewProxy the plugin
 * allowed as its holder) or closed it (CloseProxy). Written as operations, not as the state this
 * process ended with: another process may have answered the same session's other calls, and the
 * database applies each operation to the hold it finds (tunnels/sessions.ts).
 */
interface SessionOp {
  uid: number;
  open: boolean;
  runId: string;
  n: number;
  /** tell every process once written (a blocked tunnel's session ended: stop refusing its heartbeats) */
  announce: boolean;
}

/**
 * The connections of one visitor IP to one tunnel. `count` is this window's (one row when the
 * window is written, then back to 0); the group itself stays while the visitor keeps coming, so a
 * steady visitor costs no allocation per window (nor old-generation garbage for the GC to collect).
 */
interface ConnGroup {
  tun_id: number;
  uid: number;
  node_id: number;
  proxy_type: string;
  ip: string;
  first: number;
  last: number;
  count: number;
}

/** A row of tunnel_conns, in CONN_COLUMNS order. */
type ConnValues = [number, number, number, string, string, string, string, number];

/** 连接诊断: identical decisions about a tunnel within one minute (one row of tunnel_events), times in epoch ms. */
type DecisionGroup = Omit<TunnelEventInput, "first_at" | "last_at"> & { first: number; last: number };

/** A client's allowed Logins within one minute (a login_ok row once written). */
interface LoginGroup {
  uid: number;
  node_id: number;
  version: string;
  address: string;
  ip: string;
  minute: number;
  count: number;
  first: number;
  last: number;
}

/** One statement's worth of operations: the same kind, session and count, on these tunnels. */
interface OpGroup {
  open: boolean;
  runId: string;
  n: number;
  ids: number[];
  announce: { tun_id: number; uid: number }[];
}

/**
 * The operations in rounds: round i holds each tunnel's i-th operation, grouped by kind, session
 * and count. A tunnel's operations are applied in the order they came; a session's proxies, opened
 * or closed together, are one statement (most flushes are one round).
 */
function rounds(ops: [number, SessionOp[]][]): Iterable<OpGroup>[] {
  const out: Map<string, OpGroup>[] = [];
  for (const [tunId, list] of ops) {
    list.forEach((op, i) => {
      out[i] ??= new Map();
      const key = `${op.open ? 1 : 0} ${op.n} ${op.runId}`;
      let g = out[i].get(key);
      if (!g) {
        g = { open: op.open, runId: op.runId, n: op.n, ids: [], announce: [] };
        out[i].set(key, g);
      }
      g.ids.push(tunId);
      if (op.announce) g.announce.push({ tun_id: tunId, uid: op.uid });
    });
  }
  return out.map((round) => round.values());
}

const iso = (ms: number) => new Date(ms).toISOString();

/** The columns of tunnel_conns insertConns writes, in ConnValues order, with their PostgreSQL types. */
const CONN_COLUMNS = [
  ["tun_id", "integer"],
  ["uid", "integer"],
  ["node_id", "integer"],
  ["proxy_type", "text"],
  ["remote_addr", "text"],
  ["created_at", "text"],
  ["last_at", "text"],
  ["conn_count", "integer"],
] as const;
const CONN_INSERT = `insert into tunnel_conns (${CONN_COLUMNS.map(([name]) => name).join(", ")})`;

/**
 * Inserts a window's connection rows without holding up the plugin. SQLite on a file: in the
 * background worker (sqlite-worker.ts), whose own connection does the synchronous writes and any
 * wait on the disk. PostgreSQL (asynchronous anyway), or SQLite in memory: as one JSON parameter
 * unpacked by the database, a statement as cheap to build for a thousand rows as for one (a
 * multi-row VALUES list costs tens of microseconds a row in query building, on the event loop).
 */
async function insertConns(db: Kysely<DB>, rows: ConnValues[]): Promise<void> {
  if (!rows.length) return;
  const worker = sqliteWorker(db);
  if (worker) return worker.insert(CONN_INSERT, rows);
  const pg = isPostgres(db);
  const fields = CONN_COLUMNS.map(([, type], i) => (pg ? `(e->>${i})::${type}` : `e.value->>${i}`)).join(", ");
  const from = pg ? sql`json_array_elements(${JSON.stringify(rows)}::json)` : sql`json_each(${JSON.stringify(rows)})`;
  await sql`${sql.raw(CONN_INSERT)} select ${sql.raw(fields)} from ${from} as e`.execute(db);
}

/**
 * Write-behind for what the plugin learns on the hot path: tunnels going online/offline
 * (NewProxy/CloseProxy, written within `delayMs`) and visitor connections (NewUserConn). The plugin
 * answers from memory at once. Connections are logged per tunnel and visitor IP per `windowMs`,
 * with a count: a browser's or a scanner's burst of connections is one row, not hundreds. Visitor
 * IPs past `maxBuffered` are dropped (and counted) rather than letting a flood grow memory.
 */
export class FrpWriter implements DecisionWriter {
  /** each tunnel's session operations not written yet, in the order they came */
  private readonly status = new Map<number, SessionOp[]>();
  private readonly conns = new Map<string, ConnGroup>();
  /** 连接诊断's decisions not written yet, collapsed per tunnel, kind, reason and minute */
  private readonly decisions = new Map<string, DecisionGroup>();
  /** 连接诊断's allowed Logins of this minute per user and node, and those a newer one replaced */
  private readonly logins = new Map<number, LoginGroup>();
  private readonly loginRows: LoginGroup[] = [];
  /** 访客防护's bans not written yet */
  private bans: ShieldBanDecision[] = [];
  private statusTimer: NodeJS.Timeout | null = null;
  private connTimer: NodeJS.Timeout | null = null;
  private flushing: Promise<void> | null = null;
  /** connection groups dropped because the buffer was full */
  dropped = 0;

  constructor(
    private readonly ctx: AppContext,
    private readonly delayMs = 50,
    private readonly windowMs = 1000,
    private readonly maxBuffered = 20_000,
  ) {}

  /**
   * A session (run id) opened the tunnel's proxy: NewProxy was allowed while no session or this
   * one held it. Every such call is written (a held proxy opened again means a CloseProxy of the
   * earlier one is still to come, frp-protocol.md Appendix C).
   */
  online(tunId: number, uid: number, runId: string): void {
    this.push(tunId, uid, true, runId, false);
  }

  /** The session's CloseProxy for the tunnel; `announce` when other processes must learn it (blocked tunnels). */
  offline(tunId: number, uid: number, runId: string, announce: boolean): void {
    this.push(tunId, uid, false, runId, announce);
  }

  private push(tunId: number, uid: number, open: boolean, runId: string, announce: boolean): void {
    const ops = this.status.get(tunId);
    const last = ops?.[ops.length - 1];
    if (last && last.open === open && last.runId === runId) {
      last.n++;
      last.announce ||= announce;
    } else if (ops) ops.push({ uid, open, runId, n: 1, announce });
    else this.status.set(tunId, [{ uid, open, runId, n: 1, announce }]);
    this.statusTimer ??= this.later(this.delayMs);
  }

  /** A visitor connected through the tunnel. */
  conn(c: ConnRecord): void {
    const ip = visitorIp(c.remote_addr);
    const key = `${c.tun_id} ${ip}`;
    this.connTimer ??= this.later(this.windowMs);
    const group = this.conns.get(key);
    if (group) {
      if (group.count++ === 0) group.first = c.at;
      group.last = c.at;
      return;
    }
    if (this.conns.size >= this.maxBuffered) {
      this.dropped++;
      return;
    }
    const { tun_id, uid, node_id, proxy_type, at } = c;
    this.conns.set(key, { tun_id, uid, node_id, proxy_type, ip, first: at, last: at, count: 1 });
  }

  /**
   * 连接诊断: a decision about a tunnel (`tunId` 0: about the user's sessions on the node), with
   * the reason frpc was sent. Identical ones within a minute are one row with a count, collapsed
   * here and by the upsert (tunnels/tunnel-events.ts); written with the connection window.
   * `count`: that many at once (a node agent's collapsed event).
   */
  decision(tunId: number, uid: number, nodeId: number, kind: TunnelEventKind, reason: string, count = 1): void {
    const now = Date.now();
    const key = `${(now / 60_000) | 0} ${tunId} ${uid} ${nodeId} ${kind} ${reason}`;
    this.connTimer ??= this.later(this.windowMs);
    const group = this.decisions.get(key);
    if (group) {
      group.count += count;
      group.last = now;
      return;
    }
    if (this.decisions.size >= this.maxBuffered) {
      this.dropped++;
      return;
    }
    this.decisions.set(key, { tun_id: tunId, uid, node_id: nodeId, kind, reason, count, first: now, last: now });
  }

  /** 连接诊断: an allowed Login of the user on the node, with the client's version and address (no port). */
  login(uid: number, nodeId: number, version: string | undefined, address: string | undefined): void {
    // Every Login of every client: the same client again within the minute only counts (numeric
    // key, no reason string built), a new one is kept as the user's group of the minute.
    const now = Date.now();
    const minute = (now / 60_000) | 0;
    const key = uid * 2 ** 20 + nodeId;
    const v = version ?? "";
    const addr = address ?? "";
    const g = this.logins.get(key);
    if (g && g.minute === minute && g.version === v && (g.address === addr || g.ip === visitorIp(addr))) {
      g.count++;
      g.last = now;
      return;
    }
    this.connTimer ??= this.later(this.windowMs);
    if (g) this.loginRows.push(g);
    else if (this.logins.size >= this.maxBuffered) {
      this.dropped++;
      return;
    }
    const ip = addr ? visitorIp(addr) : "";
    this.logins.set(key, {
      uid,
      node_id: nodeId,
      version: v,
      address: addr,
      ip,
      minute,
      count: 1,
      first: now,
      last: now,
    });
  }

  /** 访客防护: the ban rule banned a visitor; written with the connection window (the ban is in force in this process already). */
  ban(b: ShieldBanDecision): void {
    this.connTimer ??= this.later(this.windowMs);
    if (this.bans.length >= this.maxBuffered) this.dropped++;
    else this.bans.push(b);
  }

  private takeDecisions(): TunnelEventInput[] {
    const rows: TunnelEventInput[] = [];
    for (const g of [...this.loginRows, ...this.logins.values()]) {
      const { uid, node_id, count } = g;
      const reason = loginReason(g.version, g.ip);
      rows.push({
        tun_id: 0,
        uid,
        node_id,
        kind: "login_ok",
        reason,
        count,
        first_at: iso(g.first),
        last_at: iso(g.last),
      });
    }
    this.loginRows.length = 0;
    this.logins.clear();
    for (const g of this.decisions.values()) {
      const { first, last, ...row } = g;
      rows.push({ ...row, first_at: iso(first), last_at: iso(last) });
    }
    this.decisions.clear();
    return rows;
  }

  /** This window's rows; groups without a connection in it are forgotten. */
  private takeConns(): ConnValues[] {
    const rows: ConnValues[] = [];
    for (const [key, g] of this.conns) {
      if (g.count === 0) {
        this.conns.delete(key);
        continue;
      }
      rows.push([g.tun_id, g.uid, g.node_id, g.proxy_type, g.ip, iso(g.first), iso(g.last), g.count]);
      g.count = 0;
    }
    return rows;
  }

  private later(ms: number): NodeJS.Timeout {
    const timer = setTimeout(() => void this.flush(), ms);
    timer.unref();
    return timer;
  }

  /** Writes everything buffered now; resolves when it is in the database. */
  async flush(): Promise<void> {
    for (const timer of [this.statusTimer, this.connTimer]) if (timer) clearTimeout(timer);
    this.statusTimer = this.connTimer = null;
    // One flush at a time; a second caller waits for it and then writes what came meanwhile.
    while (this.flushing) await this.flushing;
    if (!this.status.size && !this.conns.size && !this.decisions.size && !this.logins.size && !this.bans.length) return;
    const status = [...this.status];
    const bans = this.bans;
    this.bans = [];
    const conns = this.takeConns();
    const decisions = this.takeDecisions();
    this.status.clear();
    this.flushing = this.write(status, conns, decisions, bans).finally(() => {
      this.flushing = null;
    });
    await this.flushing;
  }

  private async write(
    status: [number, SessionOp[]][],
    conns: ConnValues[],
    decisions: TunnelEventInput[],
    bans: ShieldBanDecision[] = [],
  ): Promise<void> {
    try {
      if (status.length) await this.writeStatus(status);
    } catch (err) {
      this.ctx.log.error({ err, tunnels: status.length }, "frp write-behind failed (tunnel status)");
    }
    // Connection rows are a log, not state: a failed write is reported, not retried.
    try {
      await insertConns(this.ctx.db, conns);
    } catch (err) {
      this.ctx.log.error({ err, conns: conns.length }, "frp write-behind failed (connections)");
    }
    // 连接诊断 is a log too.
    try {
      await recordTunnelEvents(this.ctx.db, decisions);
    } catch (err) {
      this.ctx.log.error({ err, decisions: decisions.length }, "frp write-behind failed (tunnel events)");
    }
    // A ban stands in this process whether written or not; a failed write only keeps it from the list.
    try {
      await recordShieldBans(this.ctx, bans);
    } catch (err) {
      this.ctx.log.error({ err, bans: bans.length }, "frp write-behind failed (visitor bans)");
    }
  }

  private async writeStatus(status: [number, SessionOp[]][]): Promise<void> {
    const at = nowIso();
    await transact(this.ctx, async (trx) => {
      for (const round of rounds(status))
        for (const g of round) {
          if (g.open) await tunnelsOnline(trx, g.ids, g.runId, at, g.n);
          else await tunnelsOffline(trx, g.ids, g.runId, g.announce, g.n);
        }
    });
  }
}
