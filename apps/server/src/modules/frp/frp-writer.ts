import { TunnelStatus } from "@burrow/contract";
import { sql } from "kysely";
import type { AppContext } from "../../context";
import { nowIso } from "../../shared/time";

interface StatusChange {
  uid: number;
  online: boolean;
  runId: string | null;
  /** tell every process once written (a blocked tunnel's session ended: stop refusing its heartbeats) */
  announce: boolean;
}

export interface ConnRecord {
  tun_id: number;
  uid: number;
  node_id: number;
  proxy_type: string;
  remote_addr: string;
  created_at: string;
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

/** Rows per INSERT: far below both drivers' bind-parameter limits. */
const CHUNK = 400;

/**
 * Write-behind for what the plugin learns on the hot path: tunnels going online/offline
 * (NewProxy/CloseProxy) and visitor connections (NewUserConn). The plugin answers from memory at
 * once; this batches the writes a few milliseconds later, coalescing per tunnel. Connections past
 * `maxBuffered` are dropped (and counted) rather than letting a flood grow memory.
 */
export class FrpWriter {
  private readonly status = new Map<number, StatusChange>();
  private conns: ConnRecord[] = [];
  private timer: NodeJS.Timeout | null = null;
  private flushing: Promise<void> | null = null;
  /** connection rows dropped because the buffer was full */
  dropped = 0;

  constructor(
    private readonly ctx: AppContext,
    private readonly delayMs = 50,
    private readonly maxBuffered = 20_000,
  ) {}

  /** A session (run id) opened the tunnel's proxy. */
  online(tunId: number, uid: number, runId: string): void {
    this.status.set(tunId, { uid, online: true, runId, announce: false });
    this.schedule();
  }

  /** The tunnel's proxy closed; `announce` when other processes must learn it (blocked tunnels). */
  offline(tunId: number, uid: number, runId: string, announce: boolean): void {
    this.status.set(tunId, { uid, online: false, runId, announce });
    this.schedule();
  }

  /** A visitor connected through the tunnel. */
  conn(row: ConnRecord): void {
    if (this.conns.length >= this.maxBuffered) {
      this.dropped++;
      return;
    }
    this.conns.push(row);
    this.schedule();
  }

  private schedule(): void {
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.flush();
    }, this.delayMs);
    this.timer.unref();
  }

  /** Writes everything buffered now; resolves when it is in the database. */
  async flush(): Promise<void> {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = null;
    }
    // One flush at a time; a second caller waits for it and then writes what came meanwhile.
    while (this.flushing) await this.flushing;
    if (!this.status.size && !this.conns.length) return;
    const status = [...this.status];
    const conns = this.conns;
    this.status.clear();
    this.conns = [];
    this.flushing = this.write(status, conns).finally(() => {
      this.flushing = null;
    });
    await this.flushing;
  }

  private async write(status: [number, StatusChange][], conns: ConnRecord[]): Promise<void> {
    try {
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
        for (let i = 0; i < conns.length; i += CHUNK) {
          await trx
            .insertInto("tunnel_conns")
            .values(conns.slice(i, i + CHUNK))
            .execute();
        }
      });
    } catch (err) {
      this.ctx.log.error({ err, tunnels: status.length, conns: conns.length }, "frp write-behind failed");
      return;
    }
    for (const [tunId, s] of status)
      if (s.announce) this.ctx.events.emit("tunnel.changed", { tun_id: tunId, uid: s.uid });
  }
}
