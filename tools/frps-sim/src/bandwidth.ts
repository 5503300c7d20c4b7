/**
 * frp's bandwidth limit: the quantity parsed as `types.BandwidthQuantity` parses it
 * (pkg/config/types/types.go) and the token bucket frps builds from it (server/proxy/proxy.go:
 * `rate.NewLimiter(limit, int(limit))`, one per proxy, shared by both directions).
 */

const KB = 1024;
const MB = 1024 * 1024;

/**
 * Go's strconv.ParseFloat(s, 64), or null where it returns an error (syntax, or out of range).
 * Decimal and hexadecimal forms, inf/infinity/nan in any case; underscores only after a base
 * prefix, as Go allows.
 */
export function goParseFloat(s: string): number | null {
  const m = /^([+-]?)(.*)$/s.exec(s) as RegExpExecArray;
  const sign = m[1] === "-" ? -1 : 1;
  const body = m[2];
  if (/^(inf|infinity)$/i.test(body)) return sign * Number.POSITIVE_INFINITY;
  if (/^nan$/i.test(body)) return m[1] ? null : Number.NaN;
  let v: number;
  if (/^(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(body)) v = Number(body);
  else {
    const hex = /^0[xX]((?:_?[0-9a-fA-F])*)\.?((?:_?[0-9a-fA-F])*)[pP]([+-]?\d+)$/.exec(body);
    if (!hex || !(hex[1] + hex[2]).replace(/_/g, "")) return null;
    const int = hex[1].replace(/_/g, "");
    const frac = hex[2].replace(/_/g, "");
    const mant = Number.parseInt(`${int}${frac}` || "0", 16);
    v = mant * 2 ** (Number(hex[3]) - 4 * frac.length);
  }
  if (!Number.isFinite(v)) return null; // ErrRange
  return sign * v;
}

/** Go's strings.TrimSpace (Unicode white space). */
const trimSpace = (s: string) => s.replace(/^[\s\u0085]+|[\s\u0085]+$/g, "");

/**
 * A `bandwidth_limit` as frps reads it from a NewProxy: its bytes per second, or null where frps
 * has no limit — an empty string, a quantity it cannot parse (the error is dropped: no limit at
 * all), or one that does not come out positive in an int64.
 */
export function parseBandwidth(text: string | undefined): { text: string; bytes: number } | null {
  const s = trimSpace(text ?? "");
  if (!s) return null;
  let f: number | null;
  let base: number;
  if (s.endsWith("MB")) {
    base = MB;
    f = goParseFloat(s.slice(0, -2));
  } else if (s.endsWith("KB")) {
    base = KB;
    f = goParseFloat(s.slice(0, -2));
  } else return null;
  if (f === null) return null;
  const x = f * base;
  // int64(x): NaN, ±Inf and anything out of range become math.MinInt64 on amd64, i.e. no limit.
  if (!(x >= 1) || x >= 2 ** 63) return null;
  return { text: s, bytes: Math.trunc(x) };
}

/**
 * `rate.NewLimiter(r, b)` with r = b = the limit in bytes per second: a bucket that starts full,
 * refills at r and lends ahead (a reservation past the tokens waits until they are there).
 * frps's limited reader and writer ask it for every chunk (at most b bytes each), in both
 * directions, so a transfer of n bytes from a full bucket takes max(0, n − b) / r seconds.
 */
export class TokenBucket {
  private tokens: number;
  private last: number;

  constructor(
    readonly bytesPerSecond: number,
    private readonly now: () => number,
  ) {
    this.tokens = bytesPerSecond;
    this.last = now();
  }

  /** Takes n bytes' worth of tokens; answers how many ms the caller waits for them. */
  reserve(n: number): number {
    const t = this.now();
    const elapsed = Math.max(0, t - this.last);
    this.last = Math.max(this.last, t);
    this.tokens = Math.min(this.bytesPerSecond, this.tokens + (elapsed / 1000) * this.bytesPerSecond);
    this.tokens -= n;
    return this.tokens >= 0 ? 0 : (-this.tokens / this.bytesPerSecond) * 1000;
  }
}
