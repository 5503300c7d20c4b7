import { randomBytes } from "node:crypto";
import { decodeResponse, type GoResponse } from "./go-json";

/** The six server-plugin ops (case-sensitive, as frps validates them). */
export const PLUGIN_OPS = ["Login", "NewProxy", "CloseProxy", "Ping", "NewWorkConn", "NewUserConn"] as const;
export type PluginOp = (typeof PLUGIN_OPS)[number];

/** One `[[httpPlugins]]` entry: `url` is addr + path (http:// prefixed when it has no scheme). */
export interface HttpPlugin {
  name?: string;
  url: string;
  ops: readonly PluginOp[];
}

/** What an op ends with: the (possibly modified) content, or the error frpc would see. */
export type PluginOutcome<C> =
  | { ok: true; content: C }
  | { ok: false; error: string; detail: string /** frps would have crashed */; crash?: boolean };

/** One plugin HTTP exchange, for tests and logs. */
export interface PluginExchange {
  plugin: string;
  op: PluginOp;
  url: string;
  headers: Record<string, string>;
  body: string;
  status: number | null;
  response: string;
}

/** 16 lowercase hex characters, like frp's util.RandID (run ids, request ids). */
export const randomHex16 = (): string => randomBytes(8).toString("hex");

/** Builds the plugin URL as frps does: addr + path, http:// when no scheme is given. */
export function pluginUrl(addr: string, path: string): string {
  const url = `${addr}${path}`;
  return /^https?:\/\//.test(url) ? url : `http://${url}`;
}

/**
 * Calls every plugin registered for `op`, in configuration order, the way frps's plugin manager
 * does (frp-protocol.md §1.2–1.4): POST `<url>?op=<Op>&version=0.1.0` with the envelope; a non-200
 * status, unreadable JSON or a value of the wrong type anywhere, the content's fields included
 * (decoded as Go's json.Unmarshal does, go-json.ts), is a plugin error (frpc sees the generic
 * "send <Op> request to plugin error"); `reject` fails with `reject_reason`; `unchange` false or
 * absent REPLACES the content with the returned one as Go decoded it (missing fields empty,
 * unknown ones dropped); the next plugin gets the modified content; the first reject or error
 * stops the chain.
 */
export async function callPlugins<C extends object>(
  plugins: readonly HttpPlugin[],
  op: PluginOp,
  content: C,
  opts: { timeoutMs?: number; onExchange?: (x: PluginExchange) => void } = {},
): Promise<PluginOutcome<C>> {
  let current = content;
  const reqId = randomHex16();
  for (const p of plugins) {
    if (!p.ops.includes(op)) continue;
    const url = `${p.url}?op=${op}&version=0.1.0`;
    const headers = {
      "content-type": "application/json",
      "x-frp-reqid": reqId,
      "user-agent": "Go-http-client/1.1",
    };
    const body = JSON.stringify({ version: "0.1.0", op, content: current });
    const exchange: PluginExchange = { plugin: p.name ?? p.url, op, url, headers, body, status: null, response: "" };
    const generic = `send ${op} request to plugin error`;
    let text: string;
    try {
      // frps itself waits forever; the simulator bounds it so a broken test fails instead of hanging.
      const res = await fetch(url, {
        method: "POST",
        headers,
        body,
        signal: AbortSignal.timeout(opts.timeoutMs ?? 30_000),
      });
      text = await res.text();
      exchange.status = res.status;
      exchange.response = text;
      opts.onExchange?.(exchange);
      if (res.status !== 200) return { ok: false, error: generic, detail: `do http request error code: ${res.status}` };
    } catch (err) {
      opts.onExchange?.(exchange);
      return { ok: false, error: generic, detail: (err as Error).message };
    }
    let resp: GoResponse;
    try {
      resp = decodeResponse(op, text);
    } catch (err) {
      return { ok: false, error: generic, detail: `unmarshal response error: ${(err as Error).message}` };
    }
    if (resp.reject) return { ok: false, error: resp.reject_reason, detail: `reject: ${resp.reject_reason}` };
    if (!resp.unchange) {
      // `"content": null` empties Response.Content, and frps's `retContent.(*T)` panics on it:
      // no recover on that path, the process dies (a restart, under a supervisor).
      if (resp.content === undefined && /"content"\s*:\s*null/i.test(text))
        return { ok: false, error: generic, detail: "panic: changed content is nil", crash: true };
      // absent: the fresh *T frps decoded into, all zero
      current = (resp.content ?? decodeResponse(op, '{"content":{}}').content) as C;
    }
  }
  return { ok: true, content: current };
}
