import { Resolver } from "node:dns/promises";
import net from "node:net";
import { challengeHost, type DomainRecord, isWildcard, targetProbeHost } from "@burrow/contract";

/**
 * Looks a domain's proof records up through the configured resolvers (DNS_SERVERS, else the
 * system's) and says, in words the customer can act on, which record is missing or wrong.
 */

export interface RecordCheck {
  /** the TXT record carries the token */
  txtOk: boolean;
  /** the TXT lookup itself failed (timeout, server failure): nothing is known about the record */
  txtUnknown: boolean;
  /** the CNAME (or A) record points at the node */
  targetOk: boolean;
  /** one sentence per problem, empty when both records are right */
  problems: string[];
}

/** The records a customer must create for `domain` pointing at the node. */
export function domainRecords(
  domain: string,
  token: string,
  node: { host: string; subdomain_host: string | null },
): DomainRecord[] {
  return [{ type: "TXT", host: challengeHost(domain), value: token }, targetRecord(domain, node)];
}

/** A CNAME to the node's subdomain host, else to its host name; an A record when it only has an address. */
export function targetRecord(domain: string, node: { host: string; subdomain_host: string | null }): DomainRecord {
  if (node.subdomain_host) return { type: "CNAME", host: domain, value: node.subdomain_host.toLowerCase() };
  if (net.isIP(node.host)) return { type: "A", host: domain, value: node.host };
  return { type: "CNAME", host: domain, value: node.host.toLowerCase() };
}

const MISSING = new Set(["ENODATA", "ENOTFOUND", "NOTFOUND", "ENONAME"]);
const bare = (name: string) => name.toLowerCase().replace(/\.$/, "");
const quoteList = (values: string[]) => values.map((v) => `“${v}”`).join("、");

export function makeResolver(servers: readonly string[] | undefined): Resolver {
  const r = new Resolver({ timeout: 3000, tries: 2 });
  if (servers?.length) r.setServers([...servers]);
  return r;
}

export type Lookup<T> = { ok: true; value: T } | { ok: false; missing: boolean; code: string };
/** One query whose failure is data: `missing` when the record does not exist (NXDOMAIN, no data). */
export async function lookup<T>(q: () => Promise<T>): Promise<Lookup<T>> {
  try {
    return { ok: true, value: await q() };
  } catch (err) {
    const code = (err as { code?: string }).code ?? "ERROR";
    return { ok: false, missing: MISSING.has(code), code };
  }
}

export async function checkRecords(
  resolver: Resolver,
  domain: string,
  token: string,
  node: { host: string; subdomain_host: string | null },
): Promise<RecordCheck> {
  const txtName = challengeHost(domain);
  const target = targetRecord(domain, node);
  // A wildcard's record is seen through a name under it (targetProbeHost), as any visitor's would be.
  const probe = targetProbeHost(domain);
  const via = isWildcard(domain) ? `${domain}（以 ${probe} 查询）` : domain;
  const [txt, dest] = await Promise.all([
    lookup(() => resolver.resolveTxt(txtName)),
    target.type === "CNAME" ? lookup(() => resolver.resolveCname(probe)) : lookup(() => resolver.resolve4(probe)),
  ]);
  const problems: string[] = [];
  let txtOk = false;
  let txtUnknown = false;
  if (txt.ok) {
    const values = txt.value.map((chunks) => chunks.join(""));
    txtOk = values.includes(token);
    if (!txtOk) problems.push(`TXT 记录 ${txtName} 的值为 ${quoteList(values)}，应为 “${token}”`);
  } else if (txt.missing) {
    problems.push(`缺少 TXT 记录：${txtName}，值应为 “${token}”`);
  } else {
    txtUnknown = true;
    problems.push(`查询 TXT 记录 ${txtName} 失败（${txt.code}），请稍后重试`);
  }
  let targetOk = false;
  if (dest.ok) {
    const values = dest.value.map(bare);
    targetOk = values.includes(target.value);
    if (!targetOk) problems.push(`${target.type} 记录 ${via} 指向 ${quoteList(values)}，应指向 “${target.value}”`);
  } else if (dest.missing) {
    problems.push(`缺少 ${target.type} 记录：${via} 应指向 “${target.value}”`);
  } else {
    problems.push(`查询 ${target.type} 记录 ${via} 失败（${dest.code}），请稍后重试`);
  }
  return { txtOk, txtUnknown, targetOk, problems };
}
