import http from "node:http";
import https from "node:https";
import net from "node:net";
import type { TLSSocket } from "node:tls";
import tls from "node:tls";
import type { ReachCert } from "@burrow/contract";
import { DAY_MS } from "../../shared/time";

/*
 * The network half of 外网检测: every function here connects to an address it is given, which the
 * caller takes from the tunnel's node only (never a name a customer controls): a request carries
 * the customer's name as Host / SNI, the socket goes to the node.
 */

/** What a TCP connect found, and what the far end did in the moment after. */
export interface TcpOutcome {
  connected: boolean;
  ms: number | null;
  /** why it failed, in words; null when connected */
  error: string | null;
  /** refused outright (nobody listens on the port) */
  refused: boolean;
  /** the far end closed before sending anything (frps does so when frpc cannot reach the local service) */
  closedEarly: boolean;
}

function describe(err: unknown, timeoutMs: number): { text: string; refused: boolean } {
  const code = (err as { code?: string }).code;
  if (code === "ECONNREFUSED") return { text: "连接被拒绝（端口无人监听）", refused: true };
  if (code === "ECONNRESET") return { text: "连接被重置", refused: false };
  if (code === "EHOSTUNREACH" || code === "ENETUNREACH") return { text: "网络不可达", refused: false };
  if (code === "ETIMEDOUT" || code === "TIMEOUT") return { text: `${timeoutMs / 1000} 秒内未连上`, refused: false };
  return { text: `连接失败：${(err as Error).message ?? String(err)}`, refused: false };
}

class Timeout extends Error {
  code = "TIMEOUT";
}

/**
 * Connects to `address:port` within `connectMs`, then waits up to `holdMs` for the far end: data
 * or silence is a live service; a close without data is frps giving up on the local service.
 */
export function tcpProbe(address: string, port: number, connectMs: number, holdMs: number): Promise<TcpOutcome> {
  const started = performance.now();
  return new Promise((resolve) => {
    let ms: number | null = null;
    let settled = false;
    const socket = net.connect({ host: address, port });
    const finish = (o: Omit<TcpOutcome, "ms">) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      resolve({ ...o, ms });
    };
    let timer = setTimeout(() => {
      const d = describe(new Timeout(), connectMs);
      finish({ connected: false, error: d.text, refused: false, closedEarly: false });
    }, connectMs);
    socket.once("connect", () => {
      ms = Math.round(performance.now() - started);
      clearTimeout(timer);
      timer = setTimeout(() => finish({ connected: true, error: null, refused: false, closedEarly: false }), holdMs);
    });
    socket.once("data", () => finish({ connected: true, error: null, refused: false, closedEarly: false }));
    const closed = () => finish({ connected: true, error: null, refused: false, closedEarly: true });
    socket.once("end", closed);
    socket.once("close", () => (ms === null ? undefined : closed()));
    socket.once("error", (err) => {
      if (ms !== null) return closed();
      const d = describe(err, connectMs);
      finish({ connected: false, error: d.text, refused: d.refused, closedEarly: false });
    });
  });
}

export interface HttpOutcome {
  status: number | null;
  title: string | null;
  /** the answer is frp's own "not found" page (frps had no proxy for the name, or could not reach the local service) */
  frpNotFound: boolean;
  error: string | null;
  cert: ReachCert | null;
}

/** frp's built-in 404 page (pkg/util/vhost/resource.go), sent for an unknown name and a failed proxy alike. */
const FRP_NOT_FOUND = "Faithfully yours, frp.";
/** How much of a page is read for its title. */
const PAGE_BYTES = 64 * 1024;

const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: " " };

/** The page's <title>, entities decoded, whitespace collapsed, at most 200 characters. */
export function pageTitle(html: string): string | null {
  const m = /<title[^>]*>([\s\S]*?)<\/title>/i.exec(html);
  if (!m) return null;
  const text = m[1]
    .replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (all, e: string) => {
      if (e[0] === "#") {
        const n = e[1].toLowerCase() === "x" ? Number.parseInt(e.slice(2), 16) : Number(e.slice(1));
        return Number.isFinite(n) && n > 0 && n < 0x110000 ? String.fromCodePoint(n) : all;
      }
      return ENTITIES[e.toLowerCase()] ?? all;
    })
    .replace(/\s+/g, " ")
    .trim();
  return text ? text.slice(0, 200) : null;
}

/** The certificate a TLS socket got, judged for `name`. */
function certOf(socket: TLSSocket, name: string, now: number): ReachCert | null {
  const c = socket.getPeerCertificate();
  if (!c?.valid_to) return null;
  const validTo = new Date(c.valid_to);
  const daysLeft = Math.floor((validTo.getTime() - now) / DAY_MS);
  const identity = tls.checkServerIdentity(name, c);
  const problem =
    validTo.getTime() <= now
      ? "证书已过期"
      : identity
        ? `证书不包含域名 ${name}`
        : !socket.authorized
          ? `证书不受信任（${String(socket.authorizationError ?? "未知原因")}）`
          : null;
  const cn = (v: unknown) => (Array.isArray(v) ? v.join(",") : typeof v === "string" ? v : "");
  return {
    subject: cn(c.subject?.CN),
    issuer: cn(c.issuer?.O) || cn(c.issuer?.CN),
    valid_to: validTo.toISOString(),
    days_left: daysLeft,
    trusted: problem === null,
    problem,
  };
}

/**
 * GET / on `address:port` with `name` as Host (and SNI when `secure`), within `timeoutMs` in all.
 * Redirects are not followed; the certificate is read whatever its trust (to say what is wrong).
 */
export function httpProbe(
  address: string,
  port: number,
  name: string,
  secure: boolean,
  timeoutMs: number,
): Promise<HttpOutcome> {
  return new Promise((resolve) => {
    let settled = false;
    let cert: ReachCert | null = null;
    const finish = (o: Omit<HttpOutcome, "cert">) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      req.destroy();
      resolve({ ...o, cert });
    };
    const options = {
      host: address,
      port,
      path: "/",
      method: "GET",
      headers: { host: port === (secure ? 443 : 80) ? name : `${name}:${port}`, "user-agent": "Burrow-reach/1" },
      agent: false as const,
    };
    const req = secure
      ? https.request({ ...options, servername: net.isIP(name) ? undefined : name, rejectUnauthorized: false })
      : http.request(options);
    const timer = setTimeout(
      () => finish({ status: null, title: null, frpNotFound: false, error: `${timeoutMs / 1000} 秒内未响应` }),
      timeoutMs,
    );
    if (secure)
      req.once("socket", (s) =>
        s.once("secureConnect", () => {
          cert = certOf(s as TLSSocket, name, Date.now());
        }),
      );
    req.once("error", (err) => {
      const code = (err as { code?: string }).code;
      const text =
        code === "ECONNRESET" || /socket hang up|disconnected/i.test(err.message)
          ? secure
            ? "TLS 握手时连接被关闭"
            : "连接被关闭"
          : describe(err, timeoutMs).text;
      finish({ status: null, title: null, frpNotFound: false, error: text });
    });
    req.once("response", (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      const answer = () => {
        const body = Buffer.concat(chunks).subarray(0, PAGE_BYTES).toString("utf8");
        finish({
          status: res.statusCode ?? null,
          title: pageTitle(body),
          frpNotFound: res.statusCode === 404 && body.includes(FRP_NOT_FOUND),
          error: null,
        });
      };
      res.on("data", (chunk: Buffer) => {
        chunks.push(chunk);
        size += chunk.length;
        if (size >= PAGE_BYTES) answer();
      });
      res.once("end", answer);
      res.once("error", answer);
    });
    req.end();
  });
}
