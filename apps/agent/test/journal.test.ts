import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { Journal, META_EVERY_MS } from "../src/journal";
import {
  customer,
  type FakeConsole,
  fakeConsole,
  NODE_ID,
  newProxy,
  plugin,
  SECRET,
  until,
  visitor,
} from "./fake-console";

const AGENT_DIR = path.resolve(import.meta.dirname, "..");
const BUNDLE = path.join(AGENT_DIR, "dist/burrow-agent.mjs");

const tmp = () => fs.mkdtempSync(path.join(os.tmpdir(), "burrow-journal-"));

describe("journal", () => {
  it("keeps holds and the newest counter read past its bound, drops older reads and visitors, and reopens with what is left", async () => {
    const dir = tmp();
    let dropped = 0;
    const j = new Journal(dir, 4000, Date.now, (n) => {
      dropped += n;
    });
    const proxies = Array.from({ length: 5 }, (_, i) => ({
      name: `u_1.t_${i + 1}`,
      type: "tcp",
      todayIn: i,
      todayOut: i,
      curConns: 0,
      online: true,
      clientId: null,
      lastStartTime: null,
      lastCloseTime: null,
    }));
    const hold = j.append({ kind: "hold", data: { tun_id: 1, uid: 1, run_id: "r", stale_closes: 0 } }, true);
    for (let i = 0; i < 20; i++) {
      j.append({ kind: "counters", data: { proxies, server_info: null } }, false);
      j.append(
        {
          kind: "conn",
          data: { tun_id: 1, uid: 1, proxy_type: "tcp", remote_addr: "1.2.3.4:5", ip: "1.2.3.4", at: i },
        },
        false,
      );
    }
    const last = j.append({ kind: "counters", data: { proxies, server_info: null } }, false);
    j.close();
    expect(dropped).toBeGreaterThan(0);
    const reopened = new Journal(dir, 4000);
    const events = await reopened.batch(1000, 1 << 20);
    expect(events[0].seq).toBe(hold);
    expect(events.at(-1)?.seq).toBe(last);
    expect(events.filter((e) => e.kind === "counters").length).toBe(1);
    expect(events.map((e) => e.seq)).toEqual([...events.map((e) => e.seq)].sort((a, b) => a - b));
    // a partial last line (a crash mid-write) is dropped; the next seq goes on after the highest seen
    reopened.close();
    fs.appendFileSync(path.join(dir, "journal.ndjson"), '{"seq":99999,"at":1,"kind":"ho');
    const again = new Journal(dir, 4000);
    expect((await again.batch(1000, 1 << 20)).length).toBe(events.length);
    expect(again.append({ kind: "grace", data: { state: "left", policy: "keep" } }, true)).toBe(last + 1);
    // acknowledged events do not come back
    again.ack(last);
    again.close();
    expect((await new Journal(dir, 4000).batch(1000, 1 << 20)).map((e) => e.seq)).toEqual([last + 1]);
  });
});

describe("the journal's fsync (group commit, off the event loop)", () => {
  const hold = (tun: number) =>
    ({ kind: "hold", data: { tun_id: tun, uid: 1, run_id: "r", stale_closes: 0 } }) as const;
  /** fs.fdatasync held until released: what runs in the pool while the event loop goes on. */
  function heldSyncs(fail?: () => Error | null) {
    const calls: (() => void)[] = [];
    const real = fs.fdatasync;
    const spy = vi.spyOn(fs, "fdatasync").mockImplementation(((fd: number, cb: (err: Error | null) => void) => {
      calls.push(() => {
        const err = fail?.() ?? null;
        if (err) cb(err);
        else real(fd, cb);
      });
    }) as typeof fs.fdatasync);
    return { calls, restore: () => spy.mockRestore() };
  }
  const settled = async (p: Promise<unknown>) => {
    let done = false;
    void p.then(
      () => (done = true),
      () => (done = true),
    );
    await new Promise((r) => setTimeout(r, 20));
    return done;
  };

  it("a hold is durable only once its fsync is done; holds that come meanwhile share the next one", async () => {
    const s = heldSyncs();
    try {
      const j = new Journal(tmp(), 1 << 20);
      const first = j.append(hold(1), true);
      const firstDurable = j.whenDurable(first);
      expect(await settled(firstDurable)).toBe(false);
      expect(j.writtenSeq).toBe(0);
      // two more holds while the first fsync runs: written at once, waiting for one more fsync
      const second = j.append(hold(2), true);
      const third = j.append(hold(3), true);
      const laterDurable = j.whenDurable(third);
      expect(s.calls.length).toBe(1);
      s.calls[0]();
      await firstDurable;
      expect(j.writtenSeq).toBe(first);
      expect(await settled(laterDurable)).toBe(false);
      await until(async () => s.calls.length === 2 || null, 1000, "second fsync");
      s.calls[1]();
      await laterDurable;
      expect(j.writtenSeq).toBe(third);
      expect(second).toBe(first + 1);
      expect(s.calls.length).toBe(2);
      j.close();
    } finally {
      s.restore();
    }
  });

  it("sends the console only what is on disk: batch waits for the fsync", async () => {
    const s = heldSyncs();
    try {
      const j = new Journal(tmp(), 1 << 20);
      const seq = j.append(hold(1), true);
      const batch = j.batch(100, 1 << 20);
      expect(await settled(batch)).toBe(false);
      s.calls[0]();
      expect((await batch).map((e) => e.seq)).toEqual([seq]);
      j.close();
    } finally {
      s.restore();
    }
  });

  it("a failed fsync fails the holds it was for (their answers are errors), and the next hold tries again", async () => {
    let failing = true;
    const s = heldSyncs(() => (failing ? Object.assign(new Error("EIO: i/o error"), { code: "EIO" }) : null));
    const errors: string[] = [];
    try {
      const j = new Journal(tmp(), 1 << 20, Date.now, undefined, (e) => errors.push(e.message));
      const seq = j.append(hold(1), true);
      const durable = j.whenDurable(seq);
      s.calls[0]();
      await expect(durable).rejects.toThrow("EIO");
      expect(errors).toEqual(["EIO: i/o error"]);
      expect(j.writtenSeq).toBe(0);
      failing = false;
      const next = j.append(hold(2), true);
      const both = j.whenDurable(next);
      s.calls[1]();
      await both;
      expect(j.writtenSeq).toBe(next);
      j.close();
    } finally {
      s.restore();
    }
  });
});

describe("the journal's acknowledged seq", () => {
  const grace = { kind: "grace", data: { state: "left", policy: "keep" } } as const;
  const savedAcked = (dir: string) =>
    (JSON.parse(fs.readFileSync(path.join(dir, "journal.meta.json"), "utf8")) as { acked: number }).acked;

  it("reaches the meta file once a second, not at every acknowledgement; a crash before that resends and never reuses a seq", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    try {
      const dir = tmp();
      const j = new Journal(dir, 1 << 20);
      const seqs = Array.from({ length: 5 }, () => j.append(grace, true));
      j.ack(seqs[2]);
      j.ack(seqs[4]);
      expect(savedAcked(dir)).toBe(0);
      // the process dies here: the events acknowledged since come again (the console skips them)
      const crashed = new Journal(dir, 1 << 20);
      expect((await crashed.batch(100, 1 << 20)).map((e) => e.seq)).toEqual(seqs);
      expect(crashed.append(grace, true)).toBe(seqs[4] + 1);
      vi.advanceTimersByTime(META_EVERY_MS);
      expect(savedAcked(dir)).toBe(seqs[4]);
    } finally {
      vi.useRealTimers();
    }
  });

  it("is saved before a compaction drops the acknowledged events: after a crash the next seq is past every applied one", async () => {
    const dir = tmp();
    const j = new Journal(dir, 64 << 20);
    const pad = "x".repeat(1000);
    let last = 0;
    for (let i = 0; i < 4500; i++)
      last = j.append(
        {
          kind: "conn",
          data: { tun_id: 1, uid: 1, proxy_type: "tcp", remote_addr: pad, ip: "1.2.3.4", at: i },
        },
        false,
      );
    j.flush();
    j.ack(last); // over 4 MB, all acknowledged: compacted to nothing
    expect(fs.statSync(path.join(dir, "journal.ndjson")).size).toBe(0);
    expect(savedAcked(dir)).toBe(last);
    const crashed = new Journal(dir, 64 << 20);
    expect(await crashed.batch(100, 1 << 20)).toEqual([]);
    expect(crashed.append(grace, true)).toBe(last + 1);
  });
});

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = net.createServer();
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

describe("the bundled agent killed with SIGKILL", () => {
  let c: FakeConsole;
  let child: ChildProcess | null = null;
  const stateDir = tmp();
  let port = 0;

  beforeAll(async () => {
    const built = spawnSync(process.execPath, ["build.mjs"], { cwd: AGENT_DIR, encoding: "utf8" });
    if (built.status !== 0) throw new Error(built.stderr);
    c = await fakeConsole();
    c.users.set(21, customer(21, 42021));
    port = await freePort();
  });
  afterAll(async () => {
    child?.kill("SIGKILL");
    await c.close();
    fs.rmSync(stateDir, { recursive: true, force: true });
  });

  const startAgent = async () => {
    child = spawn(process.execPath, [BUNDLE], {
      env: {
        PATH: process.env.PATH,
        CONSOLE_URL: c.url,
        NODE_ID: String(NODE_ID),
        NODE_SECRET: SECRET,
        AGENT_PLUGIN_PORT: String(port),
        AGENT_STATE_DIR: stateDir,
      },
      stdio: "ignore",
    });
    return until(
      () =>
        fetch(`http://127.0.0.1:${port}/healthz`)
          .then((r) => r.json() as Promise<{ link: string; journal: { written: number; pending: number } }>)
          .catch(() => null),
      10_000,
      "agent up",
    );
  };
  const health = () =>
    fetch(`http://127.0.0.1:${port}/healthz`).then(
      (r) => r.json() as Promise<{ link: string; journal: { written: number; pending: number; acked: number } }>,
    );

  it("resends what it journaled, and the console applies each event once", async () => {
    const u = customer(21, 42021);
    c.eventsDown = true;
    await startAgent();
    await until(async () => (await health()).link === "up", 10_000, "stream up");
    expect((await plugin(port, "NewProxy", newProxy(u))).body.reject).toBe(false);
    for (let i = 0; i < 3; i++) expect((await plugin(port, "NewUserConn", visitor(u))).body.reject).toBe(false);
    // journaled on disk (the hold before its answer, visitors within 100 ms), never acknowledged
    const h = await until(
      async () => {
        const x = await health();
        return x.journal.written >= x.journal.pending && x.journal.pending >= 4 ? x : null;
      },
      5000,
      "journal written",
    );
    expect(c.applied).toEqual([]);
    child?.kill("SIGKILL");
    await new Promise((r) => child?.once("exit", r));

    // the console answers again; the first answer is lost on the way (the agent must resend)
    c.eventsDown = false;
    c.loseNextAnswer = true;
    await startAgent();
    await until(() => c.applied.filter((e) => e.kind === "conn").length >= 3, 10_000, "events delivered");
    await until(async () => (await health()).journal.pending === 0, 10_000, "all acknowledged");
    const kinds = c.applied.filter((e) => e.kind !== "grace").map((e) => e.kind);
    expect(kinds).toEqual(["hold", "conn", "conn", "conn"]);
    const seqs = c.applied.map((e) => e.seq);
    expect(new Set(seqs).size).toBe(seqs.length);
    // the lost answer made the agent send the same events twice; they were applied once
    const sent = c.received.flat();
    expect(sent.length).toBeGreaterThan(new Set(sent).size);
    expect(h?.journal.pending).toBeGreaterThanOrEqual(4);
  });
});
