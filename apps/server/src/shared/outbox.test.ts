import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../test/harness";
import { type DomainEvent, defineEventHandler, recordEvent } from "./outbox";
import { dispatchOutbox, OUTBOX_LIMITS, pruneOutbox, startOutboxWakeups } from "./outbox-dispatch";
import { transact } from "./tx";

/**
 * The outbox end to end on a real app (SQLite, and PostgreSQL with TEST_DB=postgres): events
 * recorded in a transaction, handlers run after the commit at least once, never again once done,
 * retried with backoff, dead after the last attempt, and the dead letters on /super/outbox.
 */
let t: TestApp;
let admin: string;
/** calls of the test handlers: handler name → event ids, in order */
const calls = new Map<string, number[]>();
/** what the flaky handler does next: throw (with this message) or succeed */
let flaky: { fail: string | null } = { fail: null };
/** a promise the "hung" handler waits on: a process that dies mid-handler never returns */
let hang: Promise<void> = Promise.resolve();

const seen = (name: string) => calls.get(name) ?? [];
const note = (name: string, e: DomainEvent) => calls.set(name, [...seen(name), e.id]);

const ok = defineEventHandler({
  name: "test.ok",
  types: ["tunnel.offline"],
  async handle(_ctx, e) {
    note("test.ok", e);
  },
});
const failing = defineEventHandler({
  name: "test.flaky",
  types: ["tunnel.online"],
  async handle(_ctx, e) {
    note("test.flaky", e);
    if (flaky.fail) throw new Error(flaky.fail);
  },
});
const slow = defineEventHandler({
  name: "test.slow",
  types: ["quota.80"],
  async handle(_ctx, e) {
    note("test.slow", e);
    await hang;
  },
});

const tunnel = (tun_id: number) => ({ tun_id, uid: 1, node_id: 1, name: `t${tun_id}` });
const record = (type: "tunnel.offline" | "tunnel.online", tun_id: number) =>
  transact(t.ctx, (trx) => recordEvent(trx, type, tunnel(tun_id)));
/** The test handlers' deliveries of an event (the app's own handlers may take the same types). */
const deliveriesOf = (eventId: number) =>
  t.db
    .selectFrom("outbox_deliveries")
    .selectAll()
    .where("event_id", "=", eventId)
    .where("handler", "like", "test.%")
    .execute();
const later = (ms: number) => () => new Date(Date.now() + ms);

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.adminToken();
  // The dispatcher with the test handlers alone: the app's own (notices, webhooks, …) take the
  // same event types and would add their deliveries to the counts.
  t.ctx.eventHandlers.splice(0, t.ctx.eventHandlers.length, ok, failing, slow);
});
afterAll(() => t.close());
beforeEach(async () => {
  // Earlier cases' leftovers must not be claimed by this one.
  await dispatchOutbox(t.ctx, { now: later(400 * 86_400_000) });
  calls.clear();
  flaky = { fail: null };
  hang = Promise.resolve();
});

describe("recording", () => {
  it("records nothing when the transaction rolls back, and the dispatcher runs nothing", async () => {
    const before = await t.db.selectFrom("outbox_events").select("id").execute();
    await expect(
      transact(t.ctx, async (trx) => {
        await recordEvent(trx, "tunnel.offline", tunnel(7));
        throw new Error("the change failed");
      }),
    ).rejects.toThrow("the change failed");
    expect(await t.db.selectFrom("outbox_events").select("id").execute()).toEqual(before);
    await dispatchOutbox(t.ctx);
    expect(seen("test.ok")).toEqual([]);
  });

  it("records a keyed event once", async () => {
    const key = `test:${Date.now()}`;
    const a = await transact(t.ctx, (trx) => recordEvent(trx, "tunnel.offline", tunnel(8), { key }));
    const b = await transact(t.ctx, (trx) => recordEvent(trx, "tunnel.offline", tunnel(8), { key }));
    expect(a).toBeTypeOf("number");
    expect(b).toBeNull();
    await dispatchOutbox(t.ctx);
    expect(seen("test.ok")).toEqual([a]);
  });
});

describe("dispatching", () => {
  it("runs a handler once per event, never again once it succeeded", async () => {
    const id = (await record("tunnel.offline", 1))!;
    expect(await dispatchOutbox(t.ctx)).toMatchObject({ done: 1 });
    await dispatchOutbox(t.ctx, { now: later(3_600_000) });
    expect(seen("test.ok")).toEqual([id]);
    const [d] = await deliveriesOf(id);
    expect(d).toMatchObject({ handler: "test.ok", status: "done", attempts: 1, holder: null });
  });

  it("delivers an event whose process died mid-handler, by the next run after the lease", async () => {
    // Process A claims the delivery and dies inside the handler: it never returns nor settles.
    let release!: () => void;
    hang = new Promise((r) => {
      release = r;
    });
    const id = (await transact(t.ctx, (trx) =>
      recordEvent(trx, "quota.80", { uid: 1, subscription_id: 1, period_end: null, used: 8, quota: 10 }),
    ))!;
    const dying = dispatchOutbox(t.ctx, { holder: "process-a" });
    await expect.poll(() => seen("test.slow")).toEqual([id]);
    const [claimed] = await deliveriesOf(id);
    expect(claimed).toMatchObject({ status: "pending", holder: "process-a", attempts: 0 });

    // Process B, while A's lease holds: nothing to do (no second run of a delivery in flight).
    await dispatchOutbox(t.ctx, { holder: "process-b" });
    expect(seen("test.slow")).toEqual([id]);
    // After the lease ran out, B runs it and it is done.
    hang = Promise.resolve();
    const r = await dispatchOutbox(t.ctx, { holder: "process-b", now: later(OUTBOX_LIMITS.leaseMs + 1000) });
    expect(r.done).toBe(1);
    expect(seen("test.slow")).toEqual([id, id]);
    expect((await deliveriesOf(id))[0]).toMatchObject({ status: "done", attempts: 1 });
    // A's late return changes nothing: the row is no longer its own.
    release();
    await dying;
    expect((await deliveriesOf(id))[0]).toMatchObject({ status: "done", attempts: 1 });
  });

  it("wakes on commit (not on a rollback), and the commit's event is in the table before the handler runs", async () => {
    const stop = startOutboxWakeups(t.ctx);
    try {
      const id = await record("tunnel.offline", 2);
      await expect.poll(() => seen("test.ok"), { timeout: 5000 }).toEqual([id]);
      await expect(
        transact(t.ctx, async (trx) => {
          await recordEvent(trx, "tunnel.offline", tunnel(3));
          throw new Error("rolled back");
        }),
      ).rejects.toThrow();
      await new Promise((r) => setTimeout(r, 200));
      expect(seen("test.ok")).toEqual([id]);
    } finally {
      await stop();
    }
  });

  it("retries a failing handler with backoff, then leaves it dead", async () => {
    flaky.fail = "webhook answered 500";
    const id = (await record("tunnel.online", 4))!;
    let now = Date.now();
    const run = () => dispatchOutbox(t.ctx, { now: () => new Date(now) });
    expect(await run()).toMatchObject({ failed: 1 });
    let [d] = await deliveriesOf(id);
    expect(d).toMatchObject({ status: "pending", attempts: 1, last_error: "webhook answered 500", holder: null });
    expect(new Date(d.next_at).getTime()).toBe(now + OUTBOX_LIMITS.backoffMs);
    // Not due yet: not run again.
    await run();
    expect(seen("test.flaky")).toHaveLength(1);
    for (let attempt = 2; attempt <= OUTBOX_LIMITS.maxAttempts; attempt++) {
      now = new Date(d.next_at).getTime();
      await run();
      [d] = await deliveriesOf(id);
      expect(d.attempts).toBe(attempt);
    }
    expect(d.status).toBe("dead");
    expect(seen("test.flaky")).toHaveLength(OUTBOX_LIMITS.maxAttempts);
    // Dead: never run again by itself.
    now += 400 * 86_400_000;
    await run();
    expect(seen("test.flaky")).toHaveLength(OUTBOX_LIMITS.maxAttempts);
  });
});

describe("the dead letters on /super/outbox", () => {
  it("lists dead deliveries with error and attempts, and a Manager's retry delivers it (audited)", async () => {
    flaky.fail = "SMTP refused";
    const id = (await record("tunnel.online", 5))!;
    for (let i = 0; i < OUTBOX_LIMITS.maxAttempts; i++) await dispatchOutbox(t.ctx, { now: later(i * 86_400_000) });
    const [dead] = await deliveriesOf(id);
    expect(dead.status).toBe("dead");

    const list = await t.api<{ list: { id: number; event_id: number; last_error: string; attempts: number }[] }>(
      "GET",
      "/super/outbox/deliveries",
      { token: admin },
    );
    expect(list.body.code).toBe("SUCCESS");
    expect(list.body.data.list).toContainEqual(
      expect.objectContaining({
        id: dead.id,
        event_id: id,
        event_type: "tunnel.online",
        event_label: "隧道上线",
        handler: "test.flaky",
        status: "dead",
        attempts: OUTBOX_LIMITS.maxAttempts,
        last_error: "SMTP refused",
      }),
    );
    const bad = await t.api("GET", "/super/outbox/deliveries", { token: admin, query: { status: "gone" } });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ code: 10000 });
    expect(bad.body.msg).toContain("status");

    // Customers may neither see nor retry.
    const customer = await t.register();
    expect((await t.api("GET", "/super/outbox/deliveries", { token: customer.token })).status).toBe(403);
    expect((await t.api("POST", `/super/outbox/deliveries/${dead.id}/retry`, { token: customer.token })).status).toBe(
      403,
    );
    expect((await deliveriesOf(id))[0].status).toBe("dead");

    flaky.fail = null;
    const retried = await t.api<{ status: string; attempts: number }>(
      "POST",
      `/super/outbox/deliveries/${dead.id}/retry`,
      { token: admin },
    );
    expect(retried.body).toMatchObject({ code: "SUCCESS", data: { status: "pending", attempts: 0 } });
    const auditRow = await t.db
      .selectFrom("audit_logs")
      .selectAll()
      .where("action", "=", "outbox.retry")
      .where("target", "=", `outboxDelivery:${dead.id}`)
      .executeTakeFirst();
    expect(auditRow).toBeDefined();
    await dispatchOutbox(t.ctx);
    expect((await deliveriesOf(id))[0]).toMatchObject({ status: "done", attempts: 1 });
    // Done: a second retry is refused and nothing runs again.
    const again = await t.api("POST", `/super/outbox/deliveries/${dead.id}/retry`, { token: admin });
    expect(again.status).toBe(403);
    const runs = seen("test.flaky").length;
    await dispatchOutbox(t.ctx, { now: later(86_400_000) });
    expect(seen("test.flaky")).toHaveLength(runs);
    expect((await t.api("POST", "/super/outbox/deliveries/999999/retry", { token: admin })).status).toBe(404);
  });
});

describe("two dispatchers at once", () => {
  it("run every delivery exactly once between them while the leases hold", async () => {
    const ids: number[] = [];
    for (let i = 0; i < 120; i++) ids.push((await record("tunnel.offline", 100 + i))!);
    const [a, b] = await Promise.all([
      dispatchOutbox(t.ctx, { holder: "process-a" }),
      dispatchOutbox(t.ctx, { holder: "process-b" }),
    ]);
    expect(a.done + b.done).toBe(120);
    expect([...seen("test.ok")].sort((x, y) => x - y)).toEqual(ids);
    const rows = await t.db
      .selectFrom("outbox_deliveries")
      .select(["status", "attempts"])
      .where("event_id", "in", ids)
      .execute();
    expect(rows).toHaveLength(120);
    expect(rows.every((r) => r.status === "done" && Number(r.attempts) === 1)).toBe(true);
  });
});

describe("pruning", () => {
  it("deletes delivered events after the retention and keeps those with a dead or pending delivery", async () => {
    const done = (await record("tunnel.offline", 300))!;
    flaky.fail = "down";
    const failed = (await record("tunnel.online", 301))!;
    await dispatchOutbox(t.ctx);
    const future = new Date(Date.now() + (OUTBOX_LIMITS.retentionDays + 1) * 86_400_000);
    expect(await pruneOutbox(t.ctx, future)).toBeGreaterThan(0);
    const left = (await t.db.selectFrom("outbox_events").select("id").execute()).map((r) => Number(r.id));
    expect(left).not.toContain(done);
    expect(left).toContain(failed);
    expect(await deliveriesOf(done)).toEqual([]);
    expect(await pruneOutbox(t.ctx)).toBe(0);
  });
});
