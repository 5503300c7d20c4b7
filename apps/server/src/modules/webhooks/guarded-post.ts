import dns from "node:dns";
import http from "node:http";
import https from "node:https";
import net from "node:net";

/*
 * The one way a webhook leaves the server (docs/webhooks.md "Addresses"): the URL's host is
 * resolved when the post is made, every address it resolves to is checked, and the connection goes
 * to the checked address (the check runs inside the socket's own lookup, so a DNS answer that
 * changes between a check and the connect cannot slip through). Redirects are never followed.
 */

/** Reserved, private, loopback, link-local (the cloud metadata address too), multicast. */
const V4_REFUSED: [string, number][] = [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  ["127.0.0.0", 8],
  ["169.254.0.0", 16],
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.0.2.0", 24],
  ["192.88.99.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["198.51.100.0", 24],
  ["203.0.113.0", 24],
  ["224.0.0.0", 4],
  ["240.0.0.0", 4],
];
/**
 * IPv6 besides its own private ranges: every form that embeds an IPv4 address (mapped, compatible,
 * NAT64, 6to4, Teredo) is refused outright rather than unpacked — a public receiver has a plain
 * address of either family.
 */
const V6_REFUSED: [string, number][] = [
  ["::", 96],
  ["::ffff:0:0", 96],
  // SIIT (IPv4-translated)
  ["::ffff:0:0:0", 96],
  ["64:ff9b::", 96],
  ["64:ff9b:1::", 48],
  ["100::", 64],
  ["2001::", 23],
  ["2001:db8::", 32],
  ["2002::", 16],
  ["fc00::", 7],
  ["fe80::", 10],
  ["fec0::", 10],
  ["ff00::", 8],
];

// One list per family: in a single BlockList an IPv4 address also matches the IPv4-mapped /96
// above, which would refuse every public IPv4 receiver.
const v4Refused = new net.BlockList();
for (const [a, p] of V4_REFUSED) v4Refused.addSubnet(a, p, "ipv4");
const v6Refused = new net.BlockList();
for (const [a, p] of V6_REFUSED) v6Refused.addSubnet(a, p, "ipv6");
const v4Loopback = new net.BlockList();
v4Loopback.addSubnet("127.0.0.0", 8, "ipv4");
const v6Loopback = new net.BlockList();
v6Loopback.addAddress("::1", "ipv6");

/**
 * Why a post to `ip` is refused, or null when it may go. The loopback (127.0.0.0/8 and ::1, in
 * their plain forms only) passes with `allowLoopback` (WEBHOOK_ALLOW_LOOPBACK, tests).
 */
export function addressRefusal(ip: string, allowLoopback: boolean): string | null {
  const family = net.isIP(ip);
  if (!family) return `不是 IP 地址：${ip}`;
  // Plain IPv4 and plain ::1 only: BlockList would also match ::ffff:127.0.0.1 against the v4 rule.
  if (allowLoopback && (family === 4 ? v4Loopback.check(ip, "ipv4") : v6Loopback.check(ip, "ipv6"))) return null;
  if (family === 6 && v6Loopback.check(ip, "ipv6")) return `地址 ${ip} 是本机回环地址，已拒绝`;
  if (family === 4 ? v4Refused.check(ip, "ipv4") : v6Refused.check(ip, "ipv6"))
    return `地址 ${ip} 属于内网、回环、链路本地或保留地址，已拒绝`;
  return null;
}

/** The host of a URL without IPv6 brackets. */
export const hostOf = (url: URL): string => url.hostname.replace(/^\[(.*)\]$/, "$1");

export interface PostOutcome {
  /** the HTTP status; null: no answer */
  status: number | null;
  /** the start of the answer's body, at most `excerptBytes` */
  excerpt: string | null;
  /** why it failed, in Chinese; null for a 2xx */
  error: string | null;
  durationMs: number;
}

export interface PostOptions {
  allowLoopback: boolean;
  timeoutMs: number;
  excerptBytes: number;
}

class RefusedAddress extends Error {}

/** A lookup that answers only addresses that pass, for the socket to connect to. */
function guardedLookup(allowLoopback: boolean): net.LookupFunction {
  return (hostname, options, callback) => {
    dns.lookup(hostname, { all: true, family: options.family ?? 0 }, (err, addresses) => {
      if (err) return callback(err, "", 0);
      if (!addresses.length) return callback(new Error(`无法解析 ${hostname}`), "", 0);
      // One refused address refuses the host: a name that mixes a public and a private address
      // would otherwise reach the private one on the next resolution.
      for (const a of addresses) {
        const why = addressRefusal(a.address, allowLoopback);
        if (why) return callback(new RefusedAddress(why), "", 0);
      }
      // With autoSelectFamily (Node's default) the socket asks for every address.
      if ((options as { all?: boolean }).all)
        return (callback as unknown as (e: null, a: dns.LookupAddress[]) => void)(null, addresses);
      callback(null, addresses[0].address, addresses[0].family);
    });
  };
}

function describeError(err: unknown, timeoutMs: number): string {
  if (err instanceof RefusedAddress) return err.message;
  const code = (err as { code?: string }).code;
  if (code === "ENOTFOUND" || code === "EAI_AGAIN") return "无法解析域名";
  if (code === "ECONNREFUSED") return "连接被拒绝";
  if (code === "ECONNRESET") return "连接被重置";
  if (code === "ETIMEDOUT" || code === "ABORT_ERR" || (err as Error).name === "TimeoutError")
    return `${timeoutMs / 1000} 秒内未响应`;
  if ((typeof code === "string" && code.startsWith("ERR_TLS")) || /certificate|SSL|TLS/i.test(String(err)))
    return `TLS 错误：${(err as Error).message}`;
  return `请求失败：${(err as Error).message ?? String(err)}`;
}

/**
 * Posts `body` to `url` with `headers` through the address check, within `timeoutMs` in all
 * (connect, answer and the excerpt). Never throws: every failure is an outcome.
 */
export function guardedPost(
  url: string,
  headers: Record<string, string>,
  body: string,
  opts: PostOptions,
): Promise<PostOutcome> {
  const started = performance.now();
  const done = (o: Omit<PostOutcome, "durationMs">): PostOutcome => ({
    ...o,
    durationMs: Math.round(performance.now() - started),
  });
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    return Promise.resolve(done({ status: null, excerpt: null, error: "地址无效" }));
  }
  const secure = target.protocol === "https:";
  if (!secure && !(target.protocol === "http:" && opts.allowLoopback))
    return Promise.resolve(done({ status: null, excerpt: null, error: "只能投递到 https:// 地址" }));
  const host = hostOf(target);
  // A literal address never reaches the lookup: checked here.
  if (net.isIP(host)) {
    const why = addressRefusal(host, opts.allowLoopback);
    if (why) return Promise.resolve(done({ status: null, excerpt: null, error: why }));
  }
  return new Promise((resolve) => {
    let settled = false;
    const finish = (o: Omit<PostOutcome, "durationMs">) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      req.destroy();
      resolve(done(o));
    };
    const req = (secure ? https : http).request(target, {
      method: "POST",
      headers: { ...headers, "content-length": String(Buffer.byteLength(body)) },
      lookup: guardedLookup(opts.allowLoopback),
      // No keep-alive pool: each post resolves and checks its host afresh.
      agent: false,
    });
    const timer = setTimeout(
      () => finish({ status: null, excerpt: null, error: `${opts.timeoutMs / 1000} 秒内未响应` }),
      opts.timeoutMs,
    );
    req.on("error", (err) => finish({ status: null, excerpt: null, error: describeError(err, opts.timeoutMs) }));
    req.on("response", (res) => {
      const status = res.statusCode ?? 0;
      const chunks: Buffer[] = [];
      let size = 0;
      const answer = () => {
        const excerpt = Buffer.concat(chunks).subarray(0, opts.excerptBytes).toString("utf8");
        const ok = status >= 200 && status < 300;
        const error = ok
          ? null
          : status >= 300 && status < 400
            ? `HTTP ${status}：重定向不会被跟随${res.headers.location ? `（Location: ${String(res.headers.location).slice(0, 200)}）` : ""}`
            : `HTTP ${status}`;
        finish({ status, excerpt, error });
      };
      res.on("data", (chunk: Buffer) => {
        chunks.push(chunk);
        size += chunk.length;
        // Enough for the excerpt: the rest of a large answer is never read.
        if (size >= opts.excerptBytes) answer();
      });
      res.on("end", answer);
      res.on("error", answer);
    });
    req.end(body);
  });
}
