import { ErrorCode } from "@burrow/contract";
import { type AgentEvent, type EventsAnswer, EventsBodySchema, MAX_BATCH_EVENTS } from "@burrow/frp-decision";
import type { AppContext } from "../../context";
import { AppError } from "../../shared/errors";
import { nowIso } from "../../shared/time";
import { type Tx, transact } from "../../shared/tx";
import { setAgentGrace } from "../frp/agent-feed";
import { frpRuntime } from "../frp/frp.routes";
import { PollConflict } from "../frp/poll-guards";
import { billAgentReading } from "../frp/poll-node";
import { tunnelsOffline, tunnelsOnline } from "../tunnels/sessions";
import { agentHub } from "./agents.service";
import { touches } from "./hub";

/**
 * Journals (streams) kept per node. An agent keeps one stream id for its journal's life, so more
 * are journals replaced (a reinstall, a wiped state dir) or a node making them up.
 */
export const MAX_NODE_STREAMS = 16;

/**
 * The journal's cursor row exists from the first batch on (a no-op afterwards). A new journal
 * beyond MAX_NODE_STREAMS replaces the node's least recently used ones rather than being refused:
 * the live journal posts all the time and stays; a refusal would lock a reinstalled agent out
 * until an operator cleaned up, while a dropped cursor only lets a dead journal's resends count again.
 */
async function ensureCursor(ctx: AppContext, nodeId: number, stream: string): Promise<void> {
  const r = await ctx.db
    .insertInto("agent_cursors")
    .values({ node_id: nodeId, stream, last_seq: 0, updated_at: nowIso() })
    .onConflict((oc) => oc.columns(["node_id", "stream"]).doNothing())
    .executeTakeFirst();
  if (!Number(r.numInsertedOrUpdatedRows ?? 0)) return;
  const others = await ctx.db
    .selectFrom("agent_cursors")
    .select("stream")
    .where("node_id", "=", nodeId)
    .where("stream", "<>", stream)
    .orderBy("updated_at", "desc")
    .orderBy("stream")
    .execute();
  const stale = others.slice(MAX_NODE_STREAMS - 1).map((o) => o.stream);
  if (stale.length)
    await ctx.db.deleteFrom("agent_cursors").where("node_id", "=", nodeId).where("stream", "in", stale).execute();
}

async function cursorOf(ctx: AppContext, nodeId: number, stream: string): Promise<number> {
  const row = await ctx.db
    .selectFrom("agent_cursors")
    .select("last_seq")
    .where("node_id", "=", nodeId)
    .where("stream", "=", stream)
    .executeTakeFirst();
  return Number(row?.last_seq ?? 0);
}

/**
 * Moves the cursor to `seq` unless it is there already: whoever moves it applies the event. On
 * PostgreSQL a second transaction doing the same waits for the first's row lock and then finds
 * the cursor moved (read committed re-checks the condition), so two posts of one batch apply
 * each event once; SQLite runs one writer at a time.
 */
async function advance(trx: Tx, nodeId: number, stream: string, seq: number): Promise<boolean> {
  const r = await trx
    .updateTable("agent_cursors")
    .set({ last_seq: seq, updated_at: nowIso() })
    .where("node_id", "=", nodeId)
    .where("stream", "=", stream)
    .where("last_seq", "<", seq)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

/** The tunnel the event names, when it is this node's and this customer's (the decision cache's entry). */
async function ownTunnel(ctx: AppContext, nodeId: number, uid: number, tunId: number): Promise<boolean> {
  const user = await frpRuntime(ctx).cache.user(uid);
  return user?.tunnels.get(tunId)?.node_id === nodeId;
}

/**
 * The customer is this node's: a tunnel of theirs on it in the decision cache's entry (not deleted,
 * or still held: the hub's own test), or looked up by its agent (the hub's coverage). A node
 * cannot write logins or session refusals into the doctor of a customer it never served.
 */
async function ownCustomer(ctx: AppContext, nodeId: number, uid: number): Promise<boolean> {
  if (agentHub(ctx).covers(nodeId, uid)) return true;
  const user = await frpRuntime(ctx).cache.user(uid);
  return !!user && touches(user, nodeId);
}

/** Whether the event is this node's to report: its own tunnel, or its own customer for a login or a session refusal. */
function owns(ctx: AppContext, nodeId: number, e: AgentEvent): Promise<boolean> | boolean {
  switch (e.kind) {
    case "hold":
    case "release":
    case "conn":
    case "ban":
      return ownTunnel(ctx, nodeId, e.data.uid, e.data.tun_id);
    case "decision":
      return e.data.tun_id === 0
        ? ownCustomer(ctx, nodeId, e.data.uid)
        : ownTunnel(ctx, nodeId, e.data.uid, e.data.tun_id);
    case "login":
      return ownCustomer(ctx, nodeId, e.data.uid);
    default:
      return false;
  }
}

/** The longest ban a node may report (the ban rule's ban_s at most). */
const MAX_BAN_MS = 30 * 86_400_000;

/** When an event happened, never later than now (the node's clock is not trusted to be ahead). */
const eventTime = (at: number) => new Date(Math.min(at, Date.now()));

/**
 * Applies one event other than counters inside the transaction that moved the cursor. `own`: the
 * tunnel it names is this node's and this customer's (checked before the transaction: SQLite's
 * one connection is the transaction's until it ends).
 */
async function applyInTx(ctx: AppContext, trx: Tx, nodeId: number, e: AgentEvent, own: boolean): Promise<void> {
  switch (e.kind) {
    case "hold":
      // The tunnel status path the console's own plugin writes through (FrpWriter → sessions.ts).
      if (own) await tunnelsOnline(trx, [e.data.tun_id], e.data.run_id, eventTime(e.at).toISOString(), 1);
      return;
    case "release":
      if (own)
        await tunnelsOffline(
          trx,
          [e.data.tun_id],
          e.data.run_id,
          e.data.announce ? [{ tun_id: e.data.tun_id, uid: e.data.uid }] : [],
          1,
        );
      return;
    case "grace":
      await setAgentGrace(trx, nodeId, e.data.state, eventTime(e.at).toISOString());
      ctx.log.warn({ node_id: nodeId, ...e.data }, "node agent: grace");
      return;
    default:
      return;
  }
}

/**
 * What goes to the frp writer's logs once the event's transaction committed: visitor connections
 * and the connection doctor's decisions and logins, each about this node's own (`own`). Logs, not
 * state (frp-writer.ts): at most once.
 */
function recordInDoctor(ctx: AppContext, nodeId: number, e: AgentEvent, own: boolean): void {
  const writer = frpRuntime(ctx).writer;
  if (e.kind === "conn" && own)
    writer.conn({
      tun_id: e.data.tun_id,
      uid: e.data.uid,
      node_id: nodeId,
      proxy_type: e.data.proxy_type,
      remote_addr: e.data.remote_addr,
      at: eventTime(e.data.at).getTime(),
    });
  else if (e.kind === "decision" && own)
    // The count once (the writer's row has a count): no work per decision counted.
    writer.decision(e.data.tun_id, e.data.uid, nodeId, e.data.kind, e.data.reason, e.data.count);
  else if (e.kind === "login" && own)
    writer.login(e.data.uid, nodeId, e.data.version ?? undefined, e.data.address ?? undefined);
  else if (e.kind === "ban" && own)
    // A node's clock is not trusted: the ban starts when it says, at most now, and lasts what the
    // rule allows at most (shield's ban_s: 30 days).
    writer.ban({
      ...e.data,
      node_id: nodeId,
      at: eventTime(e.data.at).getTime(),
      until: Math.min(e.data.until, Date.now() + MAX_BAN_MS),
    });
}

/**
 * POST /api/agent/events: the node's journal, applied in seq order, each event once. Every event
 * but counters is applied in the transaction that moves the journal's cursor past it (one for
 * each run of them between counters); a visitor
 * connection goes to the frp writer's log once that transaction committed. Counters are billed by
 * the poller's own code (billAgentReading), then the cursor moves: they are cumulative, so a read
 * billed twice (a crash in between, a concurrent post) finds the stored counters and bills nothing
 * more, and a concurrent billing of the same node gives up (PollConflict) and the answer acks what
 * was applied, for the agent to send the rest again.
 */
export async function applyAgentEvents(ctx: AppContext, nodeId: number, body: unknown): Promise<EventsAnswer> {
  const events = (body as { events?: unknown } | null)?.events;
  if (Array.isArray(events) && events.length > MAX_BATCH_EVENTS)
    throw new AppError(
      ErrorCode.InvalidParams,
      413,
      `events: 一次最多 ${MAX_BATCH_EVENTS} 条事件，请分批发送`,
      "events",
    );
  const batch = EventsBodySchema.parse(body ?? {});
  await ensureCursor(ctx, nodeId, batch.stream);
  const acked = await cursorOf(ctx, nodeId, batch.stream);
  const unapplied = batch.events.filter((e) => e.seq > acked);
  for (let i = 0; i < unapplied.length; ) {
    const e = unapplied[i];
    if (e.kind === "counters") {
      const { proxies, server_info } = e.data;
      const history = (e.data as { history?: Record<string, { in: (number | null)[]; out: (number | null)[] }> })
        .history;
      try {
        if (server_info)
          await billAgentReading(
            ctx,
            nodeId,
            { info: server_info, stats: proxies, histories: history },
            eventTime(e.at),
          );
      } catch (err) {
        if (err instanceof PollConflict) break;
        throw err;
      }
      await transact(ctx, (trx) => advance(trx, nodeId, batch.stream, e.seq));
      i++;
      continue;
    }
    // The events up to the next counters in one transaction (not one each: a full batch costs one
    // commit), each still applied by whoever moves the cursor past it. Ownership first (SQLite's
    // one connection is the transaction's until it ends).
    const run: { e: AgentEvent; own: boolean }[] = [];
    for (; i < unapplied.length && unapplied[i].kind !== "counters"; i++)
      run.push({ e: unapplied[i], own: await owns(ctx, nodeId, unapplied[i]) });
    const applied = await transact(ctx, async (trx) => {
      const done: typeof run = [];
      for (const x of run)
        if (await advance(trx, nodeId, batch.stream, x.e.seq)) {
          await applyInTx(ctx, trx, nodeId, x.e, x.own);
          done.push(x);
        }
      return done;
    });
    for (const x of applied) recordInDoctor(ctx, nodeId, x.e, x.own);
  }
  return { acked: await cursorOf(ctx, nodeId, batch.stream) };
}
