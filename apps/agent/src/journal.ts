/**
 * The durable journal of what the agent learns on the node (holds, releases, visitors, counters,
 * grace), kept until the console acknowledges it. One append-only file of NDJSON events plus a
 * small meta file (the stream id and the highest seq the console applied):
 * - an event gets the next seq when it is appended; holds and releases are written and fsynced
 *   before the plugin answers frps; the others are written in batches (one fsync per 100 ms);
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
    if (whole !== text.length) fs.truncateSync(this.logFile, whole);
    this.fd = fs.openSync(this.logFile, "a", 0o600);
    this.fileBytes = whole;
  }

  /** Appends an event; `durable`: written and fsynced before this returns (holds and releases). */
  append(body: AgentEventBody, durable: boolean): number {
    const event = { seq: this.nextSeq++, at: this.now(), ...body } as AgentEvent;
    const line = `${JSON.stringify(event)}\n`;
    this.hold(event, line);
    this.unwritten.push(line);
    if (this.pendingBytes > this.maxBytes) this.shed();
    if (durable) this.flush();
    else if (!this.flushTimer) {
      this.flushTimer = setTimeout(() => {
        try {
          this.flush();
        } catch (err) {
          this.onError(err as Error);
        }
      }, 100);
      this.flushTimer.unref();
    }
    return event.seq;
  }

  private hold(event: AgentEvent, line: string): void {
    const bytes = Buffer.byteLength(line);
    this.pending.push({ event, line, bytes });
    this.pendingBytes += bytes;
  }

  /** Writes what was appended and fsyncs the file. */
  flush(): void {
    if (this.flushTimer) {
      clearTimeout(this.flushTimer);
      this.flushTimer = null;
    }
    if (this.unwritten.length === 0) return;
    const data = this.unwritten.join("");
    // kept for the next try when the write fails (disk full): a durable append then throws to its caller
    fs.writeSync(this.fd, data);
    fs.fsyncSync(this.fd);
    this.unwritten = [];
    this.fileBytes += Buffer.byteLength(data);
    this.writtenSeq = this.nextSeq - 1;
  }

  /** The oldest unacknowledged events, at most `max` of them and `maxBytes` of JSON (all written to disk). */
  batch(max: number, maxBytes: number): AgentEvent[] {
    this.flush();
    const out: AgentEvent[] = [];
    let bytes = 0;
    for (const h of this.pending) {
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
    this.writtenSeq = this.nextSeq - 1;
  }

  close(): void {
    this.flush();
    this.saveMeta();
    fs.closeSync(this.fd);
  }
}
