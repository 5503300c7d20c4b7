import { Resolver } from "node:dns/promises";
import type { AppContext } from "../../context";

/**
 * The TXT values of `name` as the configured resolvers (DNS_SERVERS, else the system's) see
 * them, each record's strings joined; `error` says why nothing could be read (no such name is
 * not an error: an empty list).
 */
export async function lookupTxt(ctx: AppContext, name: string): Promise<{ values: string[]; error?: string }> {
  const resolver = new Resolver({ timeout: 3000, tries: 2 });
  const servers = ctx.config.DNS_SERVERS;
  if (servers?.length) resolver.setServers([...servers]);
  try {
    return { values: (await resolver.resolveTxt(name)).map((parts) => parts.join("")) };
  } catch (err) {
    const code = (err as { code?: string }).code;
    if (code === "ENOTFOUND" || code === "ENODATA") return { values: [] };
    return { values: [], error: `DNS 查询失败（${code ?? (err as Error).message}）` };
  }
}
