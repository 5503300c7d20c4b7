import type { IncomingMessage, RequestListener, ServerResponse } from "node:http";
import type { PluginAnswer } from "@burrow/frp-decision";
import type { FastifyBodyParser, FastifyInstance, FastifyRequest } from "fastify";
import type { AppContext } from "../../context";
import { errorAnswer } from "../../http/error-handler";
import { countPluginAnswer, frpRuntime, PLUGIN_ROUTE, pluginLogger } from "./frp.routes";

/** The plugin's address: `/api/frp/plugin/<node id>/<secret>`, then frps's `?op=…&version=…`. */
const PLUGIN_PATH = /^\/api\/frp\/plugin\/(\d{1,9})\/([A-Za-z0-9_-]{1,100})(?:\?|$)/;
const JSON_TYPE = /^application\/json\s*(?:;|$)/i;

/**
 * A call whose body is arriving, kept on its request: the stream listeners below are shared by
 * every call, so none allocates closures for them.
 */
interface PendingCall {
  fast: PluginFastPath;
  res: ServerResponse;
  start: number;
  nodeId: number;
  secret: string;
  chunks: Buffer[];
}
const CALL = Symbol("pluginCall");
type CallRequest = IncomingMessage & { [CALL]: PendingCall };
function onData(this: IncomingMessage, chunk: Buffer): void {
  (this as CallRequest)[CALL].chunks.push(chunk);
}
function onEnd(this: IncomingMessage): void {
  const call = (this as CallRequest)[CALL];
  call.fast.finish(this, call);
}
function ignore(): void {}
/** What Fastify's (synchronous) JSON parser last called back with. */
let parsedError: Error | null = null;
let parsedBody: unknown;
const keepParsed = (err: Error | null, body: unknown) => {
  parsedError = err;
  parsedBody = body;
};

/** What the fast path takes from the Fastify instance. */
export interface FastifyParts {
  /** Fastify's own JSON body parser (secure-json-parse, proto and constructor poisoning refused) */
  parseJson: FastifyBodyParser<string>;
  bodyLimit: number;
}

/**
 * The frps plugin endpoint, answered at the HTTP server before Fastify routes the request.
 *
 * frps calls it for every login, proxy, heartbeat and visitor connection, so its cost per call is
 * the node's connection rate ceiling: Fastify's request and reply objects, hooks and routing alone
 * cost more than the decision itself (bench/plugin.ts; the figures are in docs/frp.md, "Measuring
 * the plugin"). The answers are the Fastify route's, byte for byte: the same
 * handler (FrpPlugin.handle), Fastify's own JSON parser, the app's error answers, the same request
 * and decision metrics. Only the ordinary request is taken here — POST, a well-formed address,
 * `application/json` with a Content-Length within the body limit, the app not closing — and every
 * other one (chunked, oversized, wrong type or method, odd address, during shutdown) goes on to
 * Fastify's route, which answers it (413, 404, 415, 503…) as before. `app.inject` (the tests) always
 * takes the Fastify route; plugin-http.test.ts checks both give the same answers. No Fastify hook runs
 * for the requests taken here: a global onRequest check added later (an IP ban, a rate limit) must be
 * added here too.
 */
export class PluginFastPath {
  /** Set when the app starts closing: Fastify then answers (503, connection closed) as for any route. */
  closing = false;
  /** Requests answered here (tests check the fast path was taken). */
  served = 0;

  constructor(
    private readonly ctx: AppContext,
    private readonly fastify: FastifyParts,
  ) {}

  /** The fast path of an app (tests). */
  static of(ctx: AppContext): PluginFastPath | undefined {
    return frpRuntime(ctx).fastPath ?? undefined;
  }

  /** Answers the request and returns true, or returns false and leaves it to Fastify untouched. */
  handle(req: IncomingMessage, res: ServerResponse): boolean {
    if (this.closing || req.method !== "POST") return false;
    const m = PLUGIN_PATH.exec(req.url as string);
    if (m === null) return false;
    const type = req.headers["content-type"];
    const length = Number(req.headers["content-length"]);
    if (
      type === undefined ||
      !JSON_TYPE.test(type) ||
      !(length <= this.fastify.bodyLimit) ||
      req.headers["transfer-encoding"] !== undefined
    )
      return false;
    this.served++;
    const call: PendingCall = {
      fast: this,
      res,
      start: performance.now(),
      nodeId: Number(m[1]),
      secret: m[2],
      chunks: [],
    };
    (req as CallRequest)[CALL] = call;
    req.on("data", onData);
    // A client gone mid-body: nothing to answer; Node closes the socket.
    req.on("error", ignore);
    req.on("end", onEnd);
    return true;
  }

  /** The whole body has arrived: parse it (as Fastify would), decide, answer. */
  finish(req: IncomingMessage, call: PendingCall): void {
    const { chunks, res, start } = call;
    const text = (chunks.length === 1 ? chunks[0] : Buffer.concat(chunks)).toString("utf8");
    this.fastify.parseJson(req as unknown as FastifyRequest, text, keepParsed);
    // Fastify's parser calls back inside its own try: the decision runs after it has returned.
    const err = parsedError;
    const body = parsedBody;
    parsedError = null;
    parsedBody = undefined;
    if (err) {
      // As Fastify does after a body it could not parse.
      res.setHeader("connection", "close");
      this.answer(res, start, undefined, errorAnswer(err, pluginLogger(this.ctx)));
      return;
    }
    const failed = (e: unknown) => this.answer(res, start, body, errorAnswer(e, pluginLogger(this.ctx)));
    let a: PluginAnswer | Promise<PluginAnswer>;
    try {
      a = frpRuntime(this.ctx).plugin.handle(call.nodeId, call.secret, body);
    } catch (e) {
      failed(e);
      return;
    }
    if (a instanceof Promise) a.then((x) => this.answer(res, start, body, x, true), failed);
    else this.answer(res, start, body, a, true);
  }

  /** Sends an answer; never throws (it runs in stream and promise callbacks). */
  private answer(
    res: ServerResponse,
    start: number,
    body: unknown,
    a: { status: number; body: unknown },
    decided = false,
  ): void {
    try {
      if (res.headersSent) return;
      if (decided) countPluginAnswer(this.ctx, body, a as PluginAnswer);
      const text = JSON.stringify(a.body);
      // While the app closes, the connection ends with this answer (Fastify refuses what follows).
      if (this.closing) res.setHeader("connection", "close");
      res.writeHead(a.status, {
        "content-type": "application/json; charset=utf-8",
        "content-length": Buffer.byteLength(text),
      });
      res.end(text);
      this.ctx.metrics.request("POST", PLUGIN_ROUTE, a.status, (performance.now() - start) / 1000);
    } catch (err) {
      pluginLogger(this.ctx).error({ err }, "plugin: the answer could not be sent");
      res.destroy();
    }
  }
}

/**
 * Puts the plugin's fast path in front of Fastify's handler on the app's server (Fastify builds
 * the server, with its timeouts and bindings; a second binding, as for HOST=localhost, keeps
 * Fastify's handler alone and so the route), and stops it taking requests once the app closes.
 * The frp manifest's `server` part: buildApp calls it before any other preClose hook is added.
 */
export function installPluginFastPath(app: FastifyInstance, ctx: AppContext): PluginFastPath {
  const fast = new PluginFastPath(ctx, {
    parseJson: app.getDefaultJsonParser("error", "error"),
    // Fastify's own limit: what it would read on the route.
    bodyLimit: app.initialConfig.bodyLimit ?? 1024 * 1024,
  });
  frpRuntime(ctx).fastPath = fast;
  const [fastify] = app.server.listeners("request") as RequestListener[];
  app.server.removeListener("request", fastify);
  app.server.on("request", (req: IncomingMessage, res: ServerResponse) => {
    if (!fast.handle(req, res)) fastify(req, res);
  });
  app.addHook("preClose", (done) => {
    fast.closing = true;
    done();
  });
  return fast;
}
