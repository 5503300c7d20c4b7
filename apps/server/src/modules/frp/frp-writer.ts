import { TunnelStatus } from "@burrow/contract";
import { type Kysely, sql } from "kysely";
import { isPostgres } from "../../db/dialect";
import type { DB } from "../../db/schema";
import type { AppContext } from "../../context";
import { nowIso } from "../../shared/time";

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

/** The connections of one visitor IP to one tunnel within a window: one row. */
interface ConnGroup extends Omit<ConnRecord, "at"> {
  first: number;
  last: number;
  count: number;
}

/** The visitor's IP from frps's "ip:port" ("[v6]:port" for IPv6). */
export function visitorIp(addr: string): string {
  const v6 = /^\[([^\]]+)\](?::\d+)?$/.exec(addr);
  if (v6) return v6[1];
  const colon = addr.lastIndexOf(":");
  return colon > 0 && addr.indexOf(":") === colon ? addr.slice(0, colon) : addr;
}

/** Tunnel ids by "<1|0>:<run id>" (online or offline, which session). */
function groupBy(status: [number, StatusChange][]): Map<string, number[]> {
  const out = new Map<string, number[]>();
  for (const [tunId, s] of status) {
    const key = `${s.online ? 1 : 0}:${s.runId ?? ""}`;
    const ids = out.get(key);
    if (ids) ids.push(tunId);
    else out.set(key, [tunId]);
  }
  return out;
}

/** Tunnels per UPDATE: far below both drivers' bind-parameter limits. */
const CHUNK = 400;
/**
 * Connection rows per INSERT. SQLite writes block the event loop, so a window's rows go out in
 * short statements spread over the next window (at most CONN_GAP_MS apart): a plugin answer waits
 * for one small statement at worst, never for the batch.
 */
const CONN_CHUNK = 25;
const CONN_GAP_MS = 10;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

const iso = (ms: number) => new Date(ms).toISOString();

/** The columns insertConns writes, with their PostgreSQL types for json_to_recordset. */
const CONN_COLUMNS = {
  tun_id: "integer",
  uid: "integer",
  node_id: "integer",
  proxy_type: "text",
  remote_addr: "text",
  created_at: "text",
  last_at: "text",
  conn_count: "integer",
} as const;

/**
 * Inserts connection groups as one JSON parameter unpacked by the database: a short statement
 * that is cheap to prepare and bind, where a multi-row VALUES list costs tens of microseconds a
 * row in query building and binding, on the event loop.
 */
async function insertConns(db: Kysely<DB>, groups: ConnGroup[]): Promise<void> {
  const rows = JSON.stringify(
    groups.map(({ first, last, count, ...row }) => ({
      ...row,
      created_at: iso(first),
      last_at: iso(last),
      conn_count: count,
    })),
  );
  const names = Object.keys(CONN_COLUMNS);
  const columns = sql.raw(names.join(", "));
  if (isPostgres(db)) {
    const types = sql.raw(names.map((n) => `${n} ${CONN_COLUMNS[n as keyof typeof CONN_COLUMNS]}`).join(", "));
    await sql`insert into tunnel_conns (${columns}) select ${columns} from json_to_recordset(${rows}::json) as x(${types})`.execute(
      db,
    );
  } else {
    const fields = sql.raw(names.map((n) => `json_extract(value, '$.${n}')`).join(", "));
    await sql`insert into tunnel_conns (${columns}) select ${fields} from json_each(${rows})`.execute(db);
  }
}

/**
 * Write-behind for what the plugin learns on the hot path: tunnels going online/offline
 * (NewProxy/CloseProxy, written within `delayMs`) and visitor connections (NewUserConn). The plugin
 * answers from memory at once. Connections are logged per tunnel and visitor IP per `windowMs`,
 * with a count: a browser's or a scanner's burst of connections is one row, not hundreds, which
 * keeps the database (and SQLite's event-loop-blocking writes) off the plugin's latency. Visitor
 * IPs past `maxBuffered` in one window are dropped (and counted) rather than letting a flood grow
 * memory.
 */
export class FrpWriter {
  private readonly status = new Map<number, StatusChange>();
  private conns = new Map<string, ConnGroup>();
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
    const group = this.conns.get(key);
    if (group) {
      group.count++;
      group.last = c.at;
      return;
    }
    if (this.conns.size >= this.maxBuffered) {
      this.dropped++;
      return;
    }
    const { at, ...row } = c;
    this.conns.set(key, { ...row, remote_addr: ip, first: at, last: at, count: 1 });
    this.connTimer ??= this.later(this.windowMs);
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
    const conns = [...this.conns.values()];
    this.status.clear();
    this.conns = new Map();
    this.flushing = this.write(status, conns).finally(() => {
      this.flushing = null;
    });
    await this.flushing;
  }

  private async write(status: [number, StatusChange][], conns: ConnGroup[]): Promise<void> {
    try {
      if (status.length) await this.writeStatus(status);
      for (const [tunId, s] of status)
        if (s.announce) this.ctx.events.emit("tunnel.changed", { tun_id: tunId, uid: s.uid });
    } catch (err) {
      this.ctx.log.error({ err, tunnels: status.length }, "frp write-behind failed (tunnel status)");
    }
    // Connection rows are a log, not state: each chunk stands alone, and a failed one is reported.
    const gap = Math.min(CONN_GAP_MS, (this.windowMs * 0.8) / Math.ceil(conns.length / CONN_CHUNK));
    for (let i = 0; i < conns.length; i += CONN_CHUNK) {
      if (i) await sleep(gap);
      const chunk = conns.slice(i, i + CONN_CHUNK);
      try {
        await insertConns(this.ctx.db, chunk);
      } catch (err) {
        this.ctx.log.error({ err, conns: chunk.length }, "frp write-behind failed (connections)");
      }
    }
  }

  private async writeStatus(status: [number, StatusChange][]): Promise<void> {
    await this.ctx.db.transaction().execute(async (trx) => {
      // One statement per session and direction, not per tunnel: a session opens its proxies together.
      for (const [key, ids] of groupBy(status)) {
        const [online, runId] = [key.startsWith("1"), key.slice(2)];
        for (let i = 0; i < ids.length; i += CHUNK) {
          const chunk = ids.slice(i, i + CHUNK);
          if (online) {
            await trx
              .updateTable("tunnels")
              .set({ status: TunnelStatus.Connected, run_id: runId, last_online_at: nowIso() })
              .where("tun_id", "in", chunk)
              .where("status", "in", [TunnelStatus.Connected, TunnelStatus.Offline])
              .execute();
          } else {
            // Locked or deleted tunnels keep their status; only the session is released.
            await trx
              .updateTable("tunnels")
              .set({
                run_id: null,
                status: sql<number>`case when status = ${TunnelStatus.Connected} then ${TunnelStatus.Offline} else status end`,
              })
              .where("tun_id", "in", chunk)
              .where((eb) => eb.or([eb("run_id", "=", runId), eb("run_id", "is", null)]))
              .execute();
          }
        }
      }
    });
  }
}
