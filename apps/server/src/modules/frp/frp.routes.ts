import { FrpApi, type NodePollResult } from "@burrow/contract";
import { FrpPlugin, type PluginAnswer } from "@burrow/frp-decision";
import type { FastifyBaseLogger, FastifyInstance, FastifyReply } from "fastify";
import type { AppContext } from "../../context";
import { defineRoute } from "../../http/route";
import { notFound, refused } from "../../shared/errors";
import { AppState } from "../../shared/module";
import { FrpDecisionCache } from "./decision-cache";
import { FrpEvictions } from "./evictions";
import { freeSession } from "./free-session";
import { FrpWriter } from "./frp-writer";
import type { PluginFastPath } from "./plugin-http";
import { PollConflict } from "./poll-guards";
import { pollNode } from "./poll-node";
import { type PollerHandle, startPoller } from "./poller";

/** The frp control plane of one app: decision cache, plugin, write-behind writer, poller. */
export interface FrpRuntime {
  cache: FrpDecisionCache;
  writer: FrpWriter;
  /** 强制下线's freed sessions, asked by the plugin */
  evictions: FrpEvictions;
  plugin: FrpPlugin;
  poller: PollerHandle | null;
  /**
   * The one logger of every plugin request, at warn: Fastify's child per request (for its request
   * id) at a level of the route's own had pino rebuild every log method of it, each time. Its lines
   * (failures only) therefore carry no request id.
   */
  log: FastifyBaseLogger;
  /** the plugin's fast path in front of Fastify, once installed (plugin-http.ts) */
  fastPath: PluginFastPath | null;
}

/** The control plane of an app, created when the app is built (the frp manifest lists it). */
export const frpState = new AppState<FrpRuntime>("frp", (ctx) => {
  const cache = new FrpDecisionCache(ctx.db, ctx.events, undefined, (db, uid) => ctx.domains.usable(db, uid));
  const writer = new FrpWriter(ctx);
  // At warn, or quieter where the app's own level is (tests run silent).
  const level = ctx.log.isLevelEnabled("warn") ? "warn" : ctx.log.level;
  const log = ctx.log.child({ route: "frp-plugin" }, { level }) as FastifyBaseLogger;
  const evictions = new FrpEvictions(ctx.db, ctx.events, (err) => ctx.log.error({ err }, "frp evictions load failed"));
  const plugin = new FrpPlugin(cache, writer, ctx.log, evictions);
  return { cache, writer, evictions, plugin, poller: null, log, fastPath: null };
});

/** The control plane of an app. */
export const frpRuntime = (ctx: AppContext): FrpRuntime => frpState.of(ctx);

/** The plugin endpoint's route pattern (also its label in the request metrics). */
export const PLUGIN_ROUTE = "/api/frp/plugin/:node_id/:secret";

/** Counts a plugin answer by op and verdict (the metrics' plugin decisions). */
export function countPluginAnswer(ctx: AppContext, body: unknown, a: PluginAnswer): void {
  const verdict = a.status !== 200 ? "invalid" : a.body.reject ? "reject" : a.body.unchange ? "allow" : "modify";
  ctx.metrics.plugin((body as { op?: unknown } | null)?.op, verdict);
}

/** The plugin requests' logger (FrpRuntime.log). */
export const pluginLogger = (ctx: AppContext): FastifyBaseLogger => frpRuntime(ctx).log;

/**
 * `POST /api/frp/plugin/{node_id}/{secret}`: the frps httpPlugins endpoint (frps appends
 * `?op=…&version=…` itself, which is why the secret is in the path). It answers in frp's own
 * format, not the API envelope, and logs only warnings: it is called for every visitor connection.
 */
export function frpRoutes(app: FastifyInstance, ctx: AppContext): void {
  const rt = frpRuntime(ctx);
  const send = (body: unknown, a: PluginAnswer, reply: FastifyReply) => {
    countPluginAnswer(ctx, body, a);
    reply.status(a.status).send(a.body);
  };
  app.post<{ Params: { node_id: string; secret: string } }>(
    PLUGIN_ROUTE.slice("/api".length),
    // frps is not a browser: security headers would only lengthen every answer.
    { logLevel: "warn", childLoggerFactory: () => pluginLogger(ctx), config: { securityHeaders: false } },
    // Not async: a warm cache answers synchronously, without a promise per request.
    (req, reply) => {
      const answer = rt.plugin.handle(Number(req.params.node_id), req.params.secret, req.body);
      if (answer instanceof Promise) return answer.then((a) => send(req.body, a, reply));
      send(req.body, answer, reply);
    },
  );
  defineRoute(app, ctx, FrpApi.postSuperNodePoll, ({ body }) => pollNow(ctx, body.node_id));
  defineRoute(app, ctx, FrpApi.postUserTunTunidFree, ({ params, user, operator }) =>
    freeSession(ctx, operator, user.uid, params.tunid),
  );
}

/** Starts the node poller (the manifest's `start`, once the server is ready). */
export function startFrpPoller(ctx: AppContext): void {
  const rt = frpRuntime(ctx);
  if (!rt.poller) rt.poller = startPoller(ctx, { intervalMs: ctx.config.FRP_POLL_INTERVAL * 1000 });
}

/**
 * Stops the poller and writes what is pending (the manifest's `stop`, at preClose: no new poll
 * starts while the server drains; requests in flight still run).
 */
export async function stopFrpPoller(ctx: AppContext): Promise<void> {
  const rt = frpRuntime(ctx);
  await rt.poller?.stop();
  rt.poller = null;
  await rt.writer.flush();
}

/**
 * Writes what the plugin learned since the last flush (the manifest's `drain`: after the last
 * request in flight has been answered, plugin calls answered while draining included, and before
 * the database closes).
 */
export async function flushFrp(ctx: AppContext): Promise<void> {
  await frpRuntime(ctx).writer.flush();
}

/** 立即检测: one poll of the node now, with what it found (the same poll the poller runs). */
async function pollNow(ctx: AppContext, nodeId: number): Promise<NodePollResult> {
  let r: Awaited<ReturnType<typeof pollNode>>;
  try {
    r = await pollNode(ctx, nodeId);
  } catch (err) {
    // The scheduled poller (or another operator) is polling the same node right now.
    if (err instanceof PollConflict) throw refused("该节点正在检测中，请稍后再试");
    throw err;
  }
  if (!r) {
    // pollNode skips unknown and off-shelf nodes alike; say which.
    const node = await ctx.db.selectFrom("nodes").select("node_id").where("node_id", "=", nodeId).executeTakeFirst();
    throw node ? refused("节点已下架，不检测") : notFound("节点");
  }
  const { deferred: _deferred, tails: _tails, ...found } = r;
  return found;
}
