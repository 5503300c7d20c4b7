import { type Kysely, sql } from "kysely";
import type { AppContext } from "../../context";
import { isPostgres, sqliteWorker } from "../../db/dialect";
import type { DB } from "../../db/schema";
import { nowIso } from "../../shared/time";
import { transact } from "../../shared/tx";
import { tunnelsOffline, tunnelsOnline } from "../tunnels/sessions";

interface StatusChange {
  uid: number;
  online: boolean;
  runId: string | null;
  /** tell every process once written (a blocked tunnel's session ended: stop refusing its heartbeats) */
  announce: boolean;
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

/** The visitor's IP from frps's "ip:port" ("[v6]:port" for IPv6). */
export function visitorIp(addr: string): string {
  if (addr.startsWith("[")) {
    const end = addr.indexOf("]");
    if (end > 1 && (end === addr.length - 1 || addr[end + 1] === ":")) return addr.slice(1, end);
  }
  const colon = addr.lastIndexOf(":");
  return colon > 0 && addr.indexOf(":") === colon ? addr.slice(0, colon) : addr;
}

/** Status changes by "<1|0>:<run id>" (online or offline, which session). */
function groupBy(status: [number, StatusChange][]): Map<string, [number, StatusChange][]> {
  const out = new Map<string, [number, StatusChange][]>();
  for (const change of status) {
    const key = `${change[1].online ? 1 : 0}:${change[1].runId ?? ""}`;
    const group = out.get(key);
    if (group) group.push(change);
    else out.set(key, [change]);
  }
  return out;
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
export class FrpWriter {
  private readonly status = new Map<number, StatusChange>();
  private readonly conns = new Map<string, ConnGroup>();
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

  /** A session (run id) opened the tunnel's proxy. */
  online(tunId: number, uid: number, runId: string): void {
    this.status.set(tunId, { uid, online: true, runId, announce: false });
    this.statusTimer ??= this.later(this.delayMs);
  }

  /** The tunnel's proxy closed; `announce` when other processes must learn it (blocked tunnels). */
  offline(tunId: number, uid: number, runId: string, announce: boolean): void {
    this.status.set(tunId, { uid, online: false, runId, announce });
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
    if (!this.status.size && !this.conns.size) return;
    const status = [...this.status];
    const conns = this.takeConns();
    this.status.clear();
    this.flushing = this.write(status, conns).finally(() => {
      this.flushing = null;
    });
    await this.flushing;
  }

  private async write(status: [number, StatusChange][], conns: ConnValues[]): Promise<void> {
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
  }

  private async writeStatus(status: [number, StatusChange][]): Promise<void> {
    const at = nowIso();
    await transact(this.ctx, async (trx) => {
      // One statement per session and direction, not per tunnel: a session opens its proxies together.
      for (const [key, group] of groupBy(status)) {
        const [online, runId, ids] = [key.startsWith("1"), key.slice(2), group.map(([id]) => id)];
        if (online) await tunnelsOnline(trx, ids, runId, at);
        else {
          const announce = group.filter(([, s]) => s.announce).map(([tun_id, s]) => ({ tun_id, uid: s.uid }));
          await tunnelsOffline(trx, ids, runId, announce);
        }
      }
    });
  }
}
