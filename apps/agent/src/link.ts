/**
 * The agent's link to the console, always opened from the node: the NDJSON stream of the decision
 * state (reconnected with a jittered backoff of 1 s doubling to 5 s, so a lock made while the
 * console was away reaches the node within seconds of its return; 45 s without a line is a dead
 * link), lookups of customers the copy has not seen (bounded), and the delivery of the journal
 * (resent until acknowledged; visitor records and the like gathered for up to 100 ms into one
 * request, holds and releases at once).
 */
import {
  AGENT_PATHS,
  type AgentEvent,
  agentAuthorization,
  DEAD_LINK_MS,
  type EventsAnswer,
  type LookupAnswer,
  type LookupBody,
  MAX_BATCH_BYTES,
  MAX_BATCH_EVENTS,
  type StreamLine,
  type UserWire,
} from "@burrow/frp-decision";
import type { Journal } from "./journal";

export interface LinkOptions {
  consoleUrl: string;
  nodeId: number;
  secret: string;
  lookupTimeoutMs: number;
  deadLinkMs?: number;
  /** first reconnect and resend delay; doubles up to the caps below */
  backoffMs?: number;
  /** cap of the journal's resend delay (default 30 s; the stream's return resends at once) */
  maxBackoffMs?: number;
  /** cap of the stream's reconnect delay (default 5 s) */
  streamMaxBackoffMs?: number;
}

export interface LinkHandlers {
  line(line: StreamLine): void;
  /** the stream is up (a snapshot arrived) */
  up(): void;
  /** the stream is down; `lastLine` is when the console last spoke */
  down(lastLine: number, why: string): void;
  acked(seq: number): void;
  log(msg: string): void;
}

export class ConsoleUnreachable extends Error {}

/** The answer inside the console's envelope ({code: "SUCCESS", msg, data}). */
async function answer<T>(res: Response): Promise<T> {
  const body = (await res.json()) as { code?: unknown; data?: T; msg?: string };
  if (body.code !== "SUCCESS" || body.data === undefined)
    throw new ConsoleUnreachable(`the console answered ${String(body.code)}: ${body.msg ?? ""}`);
  return body.data;
}

/** The stream's reconnect cap: a few agents knocking every 5 s cost the console nothing. */
const STREAM_MAX_BACKOFF_MS = 5_000;
/** How long a non-urgent event waits for others to share its request (and its fsync). */
export const GATHER_MS = 100;

export class Link {
  private stopped = false;
  private gatherTimer: NodeJS.Timeout | null = null;
  private streamAbort: AbortController | null = null;
  private sending = false;
  /** a deliver() came during a send: go again at once ("now") or after gathering */
  private sendAgain: "now" | "gather" | null = null;
  private sendTimer: NodeJS.Timeout | null = null;
  private sendBackoff: number;
  private readonly auth: string;
  lastLine = 0;
  connected = false;

  constructor(
    private readonly o: LinkOptions,
    private readonly journal: Journal,
    private readonly h: LinkHandlers,
  ) {
    this.auth = agentAuthorization(o.nodeId, o.secret);
    this.sendBackoff = o.backoffMs ?? 1000;
  }

  start(): void {
    void this.streamLoop();
    this.deliver();
  }

  /** Stops reconnecting and sending; resolves once a send under way has ended. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.streamAbort?.abort();
    if (this.sendTimer) clearTimeout(this.sendTimer);
    if (this.gatherTimer) clearTimeout(this.gatherTimer);
    while (this.sending) await new Promise((r) => setTimeout(r, 10));
  }

  private url(p: string): string {
    return `${this.o.consoleUrl}${p}`;
  }

  private async streamLoop(): Promise<void> {
    const base = this.o.backoffMs ?? 1000;
    const max = this.o.streamMaxBackoffMs ?? STREAM_MAX_BACKOFF_MS;
    let delay = base;
    while (!this.stopped) {
      const why = await this.streamOnce().catch((err: Error) => err.message);
      if (this.stopped) return;
      if (this.connected) {
        this.connected = false;
        delay = base;
        this.h.down(this.lastLine, why);
      }
      this.h.log(`stream closed (${why}); reconnecting in ${Math.round(delay)} ms`);
      await new Promise((r) => setTimeout(r, delay * (0.5 + Math.random() / 2)));
      delay = Math.min(max, delay * 2);
    }
  }

  /** One stream connection, until it ends; resolves with why. */
  private async streamOnce(): Promise<string> {
    const abort = new AbortController();
    this.streamAbort = abort;
    const deadMs = this.o.deadLinkMs ?? DEAD_LINK_MS;
    let dead: NodeJS.Timeout = setTimeout(() => abort.abort(new Error("dead link")), deadMs);
    try {
      const res = await fetch(this.url(AGENT_PATHS.stream), {
        headers: { authorization: this.auth, accept: "application/x-ndjson" },
        signal: abort.signal,
      });
      if (res.status !== 200 || !res.body) {
        const text = await res.text().catch(() => "");
        return `HTTP ${res.status} ${text.slice(0, 200)}`;
      }
      const reader = res.body.getReader();
      const decoder = new TextDecoder();
      let buf = "";
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return "closed by the console";
        clearTimeout(dead);
        dead = setTimeout(() => abort.abort(new Error("dead link")), deadMs);
        buf += decoder.decode(value, { stream: true });
        let nl = buf.indexOf("\n");
        while (nl >= 0) {
          const text = buf.slice(0, nl).trim();
          buf = buf.slice(nl + 1);
          nl = buf.indexOf("\n");
          if (!text) continue;
          const line = JSON.parse(text) as StreamLine;
          this.lastLine = Date.now();
          if (line.type === "snapshot" && !this.connected) {
            this.h.line(line);
            this.connected = true;
            this.h.up();
            // What was journaled meanwhile goes now, not at the end of a resend backoff that
            // grew while the console was away.
            if (this.sendTimer) {
              clearTimeout(this.sendTimer);
              this.sendTimer = null;
            }
            this.sendBackoff = this.o.backoffMs ?? 1000;
            this.deliver();
          } else if (this.connected) this.h.line(line);
        }
      }
    } catch (err) {
      const reason = abort.signal.reason as Error | undefined;
      return abort.signal.aborted && reason ? reason.message : (err as Error).message;
    } finally {
      clearTimeout(dead);
    }
  }

  /** Asks the console about a customer the copy has not seen; ConsoleUnreachable past the bound. */
  async lookup(uid: number, token: string): Promise<UserWire | null> {
    let res: Response;
    try {
      res = await fetch(this.url(AGENT_PATHS.lookup), {
        method: "POST",
        headers: { authorization: this.auth, "content-type": "application/json" },
        body: JSON.stringify({ uid, token } satisfies LookupBody),
        signal: AbortSignal.timeout(this.o.lookupTimeoutMs),
      });
    } catch (err) {
      throw new ConsoleUnreachable((err as Error).message);
    }
    if (res.status !== 200) throw new ConsoleUnreachable(`lookup: HTTP ${res.status}`);
    try {
      return (await answer<LookupAnswer>(res)).user;
    } catch (err) {
      throw new ConsoleUnreachable((err as Error).message);
    }
  }

  /**
   * Sends the journal's unacknowledged events: `urgent` (holds, releases, grace) now, or once the
   * current send ends; the rest within GATHER_MS, so a flood of visitors costs a request, a write
   * and an fsync per 100 ms, not per visitor.
   */
  deliver(urgent = true): void {
    if (this.stopped) return;
    if (this.sending) {
      if (urgent) this.sendAgain = "now";
      else this.sendAgain ??= "gather";
      return;
    }
    if (this.sendTimer) return;
    if (!urgent) {
      if (this.gatherTimer) return;
      this.gatherTimer = setTimeout(() => {
        this.gatherTimer = null;
        this.deliver();
      }, GATHER_MS);
      this.gatherTimer.unref();
      return;
    }
    if (this.gatherTimer) {
      clearTimeout(this.gatherTimer);
      this.gatherTimer = null;
    }
    this.sending = true;
    void this.sendAll().finally(() => {
      this.sending = false;
      const again = this.sendAgain;
      this.sendAgain = null;
      if (again) this.deliver(again === "now");
    });
  }

  private async sendAll(): Promise<void> {
    let max = MAX_BATCH_EVENTS;
    while (!this.stopped && this.journal.size > 0) {
      let events: AgentEvent[];
      try {
        events = await this.journal.batch(max, MAX_BATCH_BYTES - 1024);
      } catch (err) {
        return this.retry(`journal: ${(err as Error).message}`);
      }
      if (events.length === 0) return;
      let res: Response;
      try {
        res = await fetch(this.url(AGENT_PATHS.events), {
          method: "POST",
          headers: { authorization: this.auth, "content-type": "application/json" },
          body: JSON.stringify({ stream: this.journal.stream, events }),
          signal: AbortSignal.timeout(30_000),
        });
      } catch (err) {
        return this.retry(`events: ${(err as Error).message}`);
      }
      if (res.status === 413 && max > 1) {
        max = Math.max(1, Math.floor(events.length / 2));
        continue;
      }
      if (res.status !== 200) return this.retry(`events: HTTP ${res.status} ${(await res.text()).slice(0, 200)}`);
      let acked: number;
      try {
        ({ acked } = await answer<EventsAnswer>(res));
      } catch (err) {
        return this.retry(`events: ${(err as Error).message}`);
      }
      if (this.stopped) return;
      this.journal.ack(acked);
      this.h.acked(acked);
      this.sendBackoff = this.o.backoffMs ?? 1000;
      // The console skipped nothing new: do not spin on an answer that does not move the cursor.
      if (acked < events[0].seq) return this.retry(`events: the console acknowledged ${acked} < ${events[0].seq}`);
      // What came meanwhile waits for the next gathering, unless it is urgent or a backlog.
      if (this.journal.size > 0 && this.journal.size < max && !this.journal.hasUrgent()) {
        this.sendAgain ??= "gather";
        return;
      }
    }
  }

  private retry(why: string): void {
    this.h.log(`${why}; retrying in ${this.sendBackoff} ms`);
    this.sendTimer = setTimeout(() => {
      this.sendTimer = null;
      this.deliver();
    }, this.sendBackoff);
    this.sendTimer.unref();
    this.sendBackoff = Math.min(this.o.maxBackoffMs ?? 30_000, this.sendBackoff * 2);
  }
}
