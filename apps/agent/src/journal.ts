/**
 * The durable journal of what the agent learns on the node (holds, releases, visitors, counters,
 * grace), kept until the console acknowledges it. One append-only file of NDJSON events plus a
 * small meta file (the stream id and the highest seq the console applied):
 * - an event gets the next seq when it is appended; holds and releases are written at once and
 *   fsynced before the plugin answers frps (`whenDurable`), the others are written in batches every
 *   100 ms. The fsync runs off the event loop (libuv's pool) as a group commit: one fsync covers
 *   every event written before it started, and the holds that come while it runs share the next
 *   one. A synchronous fsync per hold stopped every other answer for its whole duration (the
 *   largest cost in the agent's profile, bench/agent.ts BENCH_AGENT_PROF);
 * - only fsynced events are sent to the console (`batch` waits for them): a seq the console
 *   applied is never handed out again after a crash;
 * - the console applies events in seq order and skips seq ≤ its cursor, so resending after a lost
 *   answer or a crash delivers each event exactly once;
 * - acknowledged events are dropped from memory at once and from the file when it is compacted
 *   (rewritten with the unacknowledged rest, write + fsync + rename);
 * - the acknowledged seq reaches the meta file at most once a second (two fsyncs each: at every
 *   acknowledgement they blocked the plugin's answers, bench/agent.ts), and always before a
 *   compaction: a crash in between only resends events the console skips, and a seq it applied is
 *   never handed out again (the file still holds every event after the saved seq);
 * - bounded: past `maxBytes` of unacknowledged events (a very long outage), older counter reads
 *   go first (each read is cumulative: the newest one carries the day's totals), then the oldest
 *   visitor records and 连接诊断 decisions and logins; holds, releases and grace changes are never dropped. What was
 *   dropped is counted and logged.
 */
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type { AgentEvent, AgentEventBody } from "@burrow/frp-decision";
import { writeFileAtomic } from "./copy";

interface Meta {
  stream: string;
  acked: number;
}

interface Held {
  event: AgentEvent;
  line: string;
  bytes: number;
}

/** Kinds that may be dropped past the bound, in the order they go. */
const DROPPABLE: readonly AgentEvent["kind"][] = ["counters", "conn", "decision", "login"];
const COMPACT_BYTES = 4 * 1024 * 1024;
/** How often at most the acknowledged seq is saved to the meta file. */
export const META_EVERY_MS = 1000;
/** Kinds delivered at once; the rest is gathered (Link.deliver). */
const URGENT: ReadonlySet<AgentEvent["kind"]> = new Set(["hold", "release", "grace"]);

export class Journal {
  readonly stream: string;
  private acked: number;
  private nextSeq: number;
  private readonly pending: Held[] = [];
  /** appended, not yet written to the file */
  private unwritten: string[] = [];
  private pendingBytes = 0;
  /** the highest seq written and fsynced */
  writtenSeq = 0;
  /** the highest seq written to the file (not yet fsynced past writtenSeq) */
  private bufferedSeq = 0;
  /** the highest seq appended as durable (a hold, a release, a grace change) */
  durableSeq = 0;
  /** an fsync running in the pool, and who waits for the next one */
  private syncing = false;
  private waiters: { seq: number; resolve: () => void; reject: (err: Error) => void }[] = [];
  /** bumped by a compaction (it rewrites the file and fsyncs it): an fsync started before it no longer counts */
  private generation = 0;
  private closed = false;
  private fileBytes: number;
  private fd: number;
  private flushTimer: NodeJS.Timeout | null = null;
  private metaTimer: NodeJS.Timeout | null = null;
  /** the acknowledged seq the meta file holds */
  private savedAcked: number;
  dropped = 0;
  private readonly logFile: string;
  private readonly metaFile: string;

  constructor(
    dir: string,
    private readonly maxBytes: number,
    private readonly now: () => number = Date.now,
    private readonly onDrop: (n: number) => void = () => {},
    private readonly onError: (err: Error) => void = () => {},
  ) {
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    this.logFile = path.join(dir, "journal.ndjson");
    this.metaFile = path.join(dir, "journal.meta.json");
    let meta: Meta;
    try {
      meta = JSON.parse(fs.readFileSync(this.metaFile, "utf8")) as Meta;
    } catch {
      meta = { stream: randomUUID(), acked: 0 };
      writeFileAtomic(this.metaFile, JSON.stringify(meta));
    }
    this.stream = meta.stream;
    this.acked = meta.acked;
    this.savedAcked = meta.acked;
    let maxSeq = meta.acked;
    let text = "";
    try {
      text = fs.readFileSync(this.logFile, "utf8");
    } catch {}
    // A crash mid-write leaves a partial last line: it was never acknowledged to anyone, so it goes.
    const whole = text.lastIndexOf("\n") + 1;
    for (const line of text.slice(0, whole).split("\n")) {
      if (!line) continue;
      let event: AgentEvent;
      try {
        event = JSON.parse(line) as AgentEvent;
      } catch {
        continue;
      }
      if (event.seq > maxSeq) maxSeq = event.seq;
      if (event.seq > this.acked) this.hold(event, `${line}\n`);
    }
    this.nextSeq = maxSeq + 1;
    this.writtenSeq = maxSeq;
    this.bufferedSeq = maxSeq;
    if (whole !== text.length) fs.truncateSync(this.logFile, whole);
    this.fd = fs.openSync(this.logFile, "a", 0o600);
    this.fileBytes = whole;
  }

  /**
   * Appends an event. `durable` (holds, releases, grace): written to the file now and an fsync
   * started; `whenDurable(seq)` resolves once it is on disk (the plugin's answer waits for it).
   * The rest is written within 100 ms.
   */
  append(body: AgentEventBody, durable: boolean): number {
    const event = { seq: this.nextSeq++, at: this.now(), ...body } as AgentEvent;
    const line = `${JSON.stringify(event)}\n`;
    this.hold(event, line);
    this.unwritten.push(line);
    if (this.pendingBytes > this.maxBytes) this.shed();
    if (durable) {
      this.durableSeq = event.seq;
      // a failed write throws to the caller (the plugin then answers an error: frps fails closed)
      this.writeOut();
      this.startSync();
    } else if (!this.flushTimer) {
      this.flushTimer = setTimeout(() => {
        this.flushTimer = null;
        try {
          this.writeOut();
          this.startSync();
        } catch (err) {
          this.onError(err as Error);
        }
      }, 100);
      this.flushTimer.unref();
    }
    return event.seq;
  }

  /** Resolves once every event up to `seq` is written and fsynced (rejects when the write or the fsync fails). */
  whenDurable(seq: number): Promise<void> {
    if (seq <= this.writtenSeq) return Promise.resolve();
    return new Promise((resolve, reject) => {
      this.waiters.push({ seq, resolve, reject });
      this.startSync();
    });
  }

  /** Writes what was appended to the file (the page cache: fast, in order); the fsync is apart. */
  private writeOut(): void {
    if (this.unwritten.length === 0) return;
    const data = this.unwritten.join("");
    // kept for the next try when the write fails (disk full)
    fs.writeSync(this.fd, data);
    this.unwritten = [];
    this.fileBytes += Buffer.byteLength(data);
    this.bufferedSeq = this.nextSeq - 1;
  }

  /** One fsync in the pool at a time; it covers what was written before it started (group commit). */
  private startSync(): void {
    if (this.syncing || this.closed || this.bufferedSeq <= this.writtenSeq) return;
    this.syncing = true;
    const upTo = this.bufferedSeq;
    const generation = this.generation;
    fs.fdatasync(this.fd, (err) => {
      this.syncing = false;
      // a compaction since rewrote and fsynced everything: this fsync's outcome no longer matters
      const counts = generation === this.generation && !this.closed;
      if (err && counts) {
        // its waiters fail (their answers are errors: frps fails closed); the next append tries again
        this.onError(err);
        this.settle(err);
        return;
      }
      if (counts && upTo > this.writtenSeq) this.writtenSeq = upTo;
      this.settle();
      if (this.waiters.length > 0 || this.bufferedSeq > this.writtenSeq) this.startSync();
    });
  }

  /** Resolves the waiters now on disk; with `err`, rejects the ones the failed fsync was for. */
  private settle(err?: Error): void {
    if (this.waiters.length === 0) return;
    const left: typeof this.waiters = [];
    for (const w of this.waiters) {
      if (w.seq <= this.writtenSeq) w.resolve();
      else if (err && w.seq <= this.bufferedSeq) w.reject(err);
      else left.push(w);
    }
    this.waiters = left;
  }

  private hold(event: AgentEvent, line: string): void {
    const bytes = Buffer.byteLength(line);
    this.pending.push({ event, line, bytes });
    this.pendingBytes += bytes;
  }

  /** Writes what was appended and fsyncs the file, in the event loop (closing, tests). */
  flush(): void {
    if (this.flushTimer) {
      clearTimeout(this.flushTimer);
      this.flushTimer = null;
    }
    this.writeOut();
    if (this.bufferedSeq <= this.writtenSeq) return;
    fs.fsyncSync(this.fd);
    this.writtenSeq = this.bufferedSeq;
    this.settle();
  }

  /** The oldest unacknowledged events, at most `max` of them and `maxBytes` of JSON, once on disk. */
  async batch(max: number, maxBytes: number): Promise<AgentEvent[]> {
    if (this.flushTimer) {
      clearTimeout(this.flushTimer);
      this.flushTimer = null;
    }
    this.writeOut();
    await this.whenDurable(this.bufferedSeq);
    const out: AgentEvent[] = [];
    let bytes = 0;
    for (const h of this.pending) {
      // appended while the fsync ran: the next batch takes it
      if (h.event.seq > this.writtenSeq) break;
      if (out.length >= max || (out.length > 0 && bytes + h.bytes > maxBytes)) break;
      out.push(h.event);
      bytes += h.bytes;
    }
    return out;
  }

  /** Whether a hold, a release or a grace change waits to be acknowledged (they go at once). */
  hasUrgent(): boolean {
    return this.pending.some((h) => URGENT.has(h.event.kind));
  }

  get size(): number {
    return this.pending.length;
  }

  get ackedSeq(): number {
    return this.acked;
  }

  /** The console applied every event up to `seq`. */
  ack(seq: number): void {
    if (seq <= this.acked) return;
    this.acked = seq;
    let n = 0;
    while (n < this.pending.length && this.pending[n].event.seq <= seq) {
      this.pendingBytes -= this.pending[n].bytes;
      n++;
    }
    this.pending.splice(0, n);
    if (this.fileBytes > COMPACT_BYTES && this.pendingBytes < this.fileBytes / 2) this.compact();
    else if (!this.metaTimer) {
      this.metaTimer = setTimeout(() => {
        try {
          this.saveMeta();
        } catch (err) {
          this.onError(err as Error);
        }
      }, META_EVERY_MS);
      this.metaTimer.unref();
    }
  }

  /** Saves the acknowledged seq (write, fsync, rename). */
  private saveMeta(): void {
    if (this.metaTimer) {
      clearTimeout(this.metaTimer);
      this.metaTimer = null;
    }
    if (this.savedAcked === this.acked) return;
    writeFileAtomic(this.metaFile, JSON.stringify({ stream: this.stream, acked: this.acked } satisfies Meta));
    this.savedAcked = this.acked;
  }

  /** Past the bound: drop the droppable kinds, oldest first, until back under it. */
  private shed(): void {
    // The newest counter read is kept: it carries the day's totals.
    let newestCounters = -1;
    for (let i = this.pending.length - 1; i >= 0; i--)
      if (this.pending[i].event.kind === "counters") {
        newestCounters = i;
        break;
      }
    const target = this.maxBytes * 0.9;
    const drop = new Set<number>();
    let bytes = this.pendingBytes;
    for (const kind of DROPPABLE) {
      for (let i = 0; i < this.pending.length && bytes > target; i++) {
        if (this.pending[i].event.kind !== kind || i === newestCounters || drop.has(i)) continue;
        drop.add(i);
        bytes -= this.pending[i].bytes;
      }
      if (bytes <= target) break;
    }
    if (drop.size === 0) return;
    const kept = this.pending.filter((_, i) => !drop.has(i));
    this.pending.splice(0, this.pending.length, ...kept);
    this.pendingBytes = bytes;
    this.dropped += drop.size;
    this.onDrop(drop.size);
    this.unwritten = [];
    this.compact();
  }

  /** Rewrites the file with the unacknowledged events only. */
  private compact(): void {
    // the events it leaves out are below the saved seq first: a restart must not hand theirs out again
    this.saveMeta();
    const data = this.pending.map((h) => h.line).join("");
    fs.closeSync(this.fd);
    writeFileAtomic(this.logFile, data);
    this.fd = fs.openSync(this.logFile, "a", 0o600);
    this.fileBytes = Buffer.byteLength(data);
    this.unwritten = [];
    this.writtenSeq = this.bufferedSeq = this.nextSeq - 1;
    this.generation++;
    this.settle();
  }

  close(): void {
    this.flush();
    this.saveMeta();
    this.closed = true;
    fs.closeSync(this.fd);
  }
}
