import { HOSTNAME_RE, IPV4_RE } from "./nodes";

/**
 * The one form in which a customer's domain is stored and compared (and sent to frps, which
 * matches the ASCII Host header browsers send): spaces trimmed, lower case, an internationalised
 * name in punycode (the URL parser's UTS #46 mapping, the same in Node and browsers, so full-width
 * letters and dots fold too), one trailing dot dropped. `null` for anything else: wildcards, IP
 * addresses, single labels, ports, paths, escapes.
 */
export function normalizeDomain(raw: string): string | null {
  const v = raw.trim();
  // Only letters, marks, digits, hyphens and dots (ideographic ones too) reach the URL parser,
  // so no port, path, user or percent-escape can ride along.
  if (!v || v.length > 253 || !/^[\p{L}\p{M}\p{N}.\u3002\uFF0E\uFF61-]+$/u.test(v)) return null;
  let host: string;
  try {
    host = new URL(`http://${v}/`).hostname;
  } catch {
    return null;
  }
  if (host.endsWith(".")) host = host.slice(0, -1);
  if (host.length > 253 || !HOSTNAME_RE.test(host) || !host.includes(".") || IPV4_RE.test(host)) return null;
  return host;
}

/**
 * Second-level suffixes under which anyone may register a name (from the public suffix list, the
 * ones Burrow's customers meet): `*.com.cn` would claim every such registration. Not the whole list
 * (no runtime dependency carries it); single-label apexes (`*.com`) are refused by shape.
 */
const PUBLIC_SUFFIXES = new Set(
  [
    "cn:com,net,org,gov,edu,ac,mil,ah,bj,cq,fj,gd,gs,gx,gz,ha,hb,he,hi,hk,hl,hn,jl,js,jx,ln,mo,nm,nx,qh,sc,sd,sh,sn,sx,tj,tw,xj,xz,yn,zj",
    "hk:com,net,org,edu,gov,idv",
    "tw:com,net,org,edu,gov,idv",
    "mo:com,net,org,edu,gov",
    "uk:co,org,me,ltd,plc,net,ac,gov,sch",
    "jp:co,ne,or,ac,ad,ed,go,gr,lg",
    "kr:co,ne,or,re,pe,go,ac",
    "au:com,net,org,edu,gov,asn,id",
    "nz:co,net,org,ac,govt",
    "sg:com,net,org,edu,gov",
    "my:com,net,org,edu,gov",
    "in:co,net,org,firm,gen,ind",
    "br:com,net,org,gov",
    "za:co,org,net",
    "ru:com,net,org",
    "tr:com,net,org",
    "id:co,or,ac,web",
    "th:co,in,or,ac",
    "vn:com,net,org",
    "ph:com,net,org",
    "eu:com",
  ].flatMap((line) => {
    const [tld, seconds] = line.split(":");
    return seconds.split(",").map((s) => `${s}.${tld}`);
  }),
);

/** Whether a canonical name is only a public suffix (`com`, `com.cn`), which nobody can prove as theirs. */
export const isPublicSuffix = (domain: string): boolean => !domain.includes(".") || PUBLIC_SUFFIXES.has(domain);

export const WILDCARD_PREFIX = "*.";
export const isWildcard = (domain: string): boolean => domain.startsWith(WILDCARD_PREFIX);
/** The name a wildcard stands under (`*.a.com` → `a.com`); a plain name is its own apex. */
export const domainApex = (domain: string): string => (isWildcard(domain) ? domain.slice(2) : domain);
/**
 * A domain as a file or directory name (frpc's certs/<name>/, a download's name): `*` is not
 * allowed in Windows file names, so `*.a.com` is written `_wildcard.a.com` (no host name has "_").
 */
export const fileSafeDomain = (domain: string): string =>
  isWildcard(domain) ? `_wildcard.${domainApex(domain)}` : domain;

/** The wildcard that covers a plain name (`x.a.com` → `*.a.com`), null when its parent is a public suffix. */
export function coveringWildcard(domain: string): string | null {
  if (isWildcard(domain)) return null;
  const parent = domain.slice(domain.indexOf(".") + 1);
  return parent.includes(".") && !isPublicSuffix(parent) ? `${WILDCARD_PREFIX}${parent}` : null;
}

/**
 * A customer's domain in its canonical form: a plain name (normalizeDomain), or one wildcard as
 * the whole leftmost label over a name that is not a public suffix (`*.a.com`, `*.b.a.com`; not
 * `*.com`, `*.com.cn`, `a.*.com`, `*.*.a.com`, `*`). Why it is refused, as a message, otherwise.
 */
export function parseCustomDomain(raw: string): { domain: string } | { problem: string } {
  const v = raw.trim();
  const star = /^[*＊][.。．｡]/u.exec(v);
  const rest = star ? v.slice(star[0].length) : v;
  if (/[*＊]/u.test(rest)) return { problem: "泛域名只能在最左边使用一个 *，例如 *.example.com" };
  const apex = normalizeDomain(rest);
  if (apex === null && star && /^[\p{L}\p{N}-]+$/u.test(rest))
    return { problem: `不能使用 *.${rest}：${rest} 是顶级域名` };
  if (apex === null) return { problem: "域名格式不正确" };
  if (!star) return { domain: apex };
  if (isPublicSuffix(apex)) return { problem: `${apex} 是公共后缀，不能使用 *.${apex}` };
  return { domain: `${WILDCARD_PREFIX}${apex}` };
}
