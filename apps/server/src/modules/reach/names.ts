import net from "node:net";
import type { DomainRecord, ReachDns } from "@burrow/contract";
import { lookup } from "../domains/dns-check";
import { addressRefusal } from "../webhooks/guarded-post";

/** The queries 外网检测 makes: node:dns's Resolver has them; tests hand in a stub (reachState). */
export interface ReachResolver {
  resolve4(name: string): Promise<string[]>;
  resolve6(name: string): Promise<string[]>;
  resolveCname(name: string): Promise<string[]>;
}

/** A query that gives up after `ms` (the whole check has 10 s). */
const within = <T>(p: Promise<T>, ms: number): Promise<T> =>
  Promise.race([
    p,
    new Promise<T>((_, reject) =>
      setTimeout(() => reject(Object.assign(new Error("timeout"), { code: "ETIMEOUT" })), ms).unref(),
    ),
  ]);

/** A and AAAA addresses of `name` (the resolver follows a CNAME); `error` when neither query answered. */
async function addressesOf(
  resolver: ReachResolver,
  name: string,
  ms: number,
): Promise<{ addresses: string[]; error: string | null }> {
  const [a, aaaa] = await Promise.all([
    lookup(() => within(resolver.resolve4(name), ms)),
    lookup(() => within(resolver.resolve6(name), ms)),
  ]);
  const addresses = [...(a.ok ? a.value : []), ...(aaaa.ok ? aaaa.value : [])];
  const failed = [a, aaaa].find((r) => !r.ok && !r.missing);
  return { addresses, error: !addresses.length && failed && !failed.ok ? failed.code : null };
}

/**
 * The node's addresses: its host itself when an IP (the operator chose it, loopback included), else
 * the public addresses the host resolves to. A name's private, loopback, link-local or reserved
 * answers are dropped and never contacted: split-horizon, dangling or hijacked DNS would otherwise
 * let a customer probe the console's own network and read back status and title.
 */
export async function nodeAddresses(
  resolver: ReachResolver,
  host: string,
  ms: number,
): Promise<{ addresses: string[]; error: string | null }> {
  if (!host) return { addresses: [], error: "节点不存在" };
  if (net.isIP(host)) return { addresses: [host], error: null };
  const r = await addressesOf(resolver, host, ms);
  const usable = r.addresses.filter((a) => addressRefusal(a, false) === null);
  if (usable.length) return { addresses: usable, error: null };
  if (r.addresses.length)
    return { addresses: [], error: `节点地址 ${host} 解析到内网、回环或保留地址（未对其发起连接）` };
  return { addresses: [], error: `节点地址 ${host} 无法解析${r.error ? `（${r.error}）` : ""}` };
}

/**
 * Whether `name` points at the node: every address it resolves to must be one of the node's. An
 * address elsewhere is reported, never contacted — a private or loopback one (a customer's name
 * may resolve anywhere) is named as such. `fix` is the record to create (custom domains).
 */
export async function checkName(
  resolver: ReachResolver,
  name: string,
  nodeAddrs: readonly string[],
  fix: DomainRecord | null,
  ms: number,
): Promise<ReachDns> {
  const [found, cname] = await Promise.all([
    addressesOf(resolver, name, ms),
    lookup(() => within(resolver.resolveCname(name), ms)),
  ]);
  const cnameTarget = cname.ok && cname.value.length ? cname.value[0].toLowerCase().replace(/\.$/, "") : null;
  const own = new Set(nodeAddrs);
  const wrong = found.addresses.filter((a) => !own.has(a));
  const remedy = fix ? `：请设置 ${fix.type} 记录 ${fix.host} → ${fix.value}` : "，请联系客服";
  let problem: string | null = null;
  if (found.error) problem = `查询 ${name} 的解析失败（${found.error}），请稍后重试`;
  else if (!found.addresses.length) problem = `${name} 没有解析记录${remedy}`;
  else if (wrong.length) {
    const inner = wrong.filter((a) => addressRefusal(a, false) !== null);
    const where = inner.length
      ? `内网、回环或保留地址 ${inner.join("、")}（外网访问不到，未对其发起连接）`
      : `${wrong.join("、")}，不是节点地址`;
    problem = `${name} 解析到 ${where}${remedy}`;
  }
  return {
    name,
    addresses: found.addresses,
    cname: cnameTarget,
    ok: problem === null,
    problem,
    fix: problem && fix ? fix : null,
  };
}
