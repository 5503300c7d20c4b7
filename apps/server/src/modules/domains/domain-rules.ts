import { domainToUnicode } from "node:url";
import { domainApex, isWildcard } from "@burrow/contract";
import type { Kysely } from "kysely";
import type { DomainNames } from "../../context";
import type { DB } from "../../db/schema";
import { nodeHostNames } from "../nodes/nodes.repository";

/**
 * Homograph checks on a custom domain already in its canonical ASCII form (normalizeDomain in the
 * contract). Claims are compared on that form, so two spellings of one name never coexist; what
 * is refused here are names built to look like another one (a customer hosting `аpple.com` with
 * a Cyrillic "а"), after the rules browsers use to decide whether to show an IDN in Unicode:
 * one alphabet per label (Chinese, Japanese and Korean may mix with Latin), no label written
 * wholly in Cyrillic or Greek letters that all look Latin, no Latin letters that pass for others.
 */

/** Scripts that may sit beside Latin in one label (CJK names commonly mix with ASCII). */
const CJK = ["Han", "Hiragana", "Katakana", "Hangul", "Bopomofo"] as const;
/** Alphabets of which a label may use only one. */
const ALPHABETS = [
  "Latin",
  "Cyrillic",
  "Greek",
  "Armenian",
  "Georgian",
  "Cherokee",
  "Hebrew",
  "Arabic",
  "Thai",
  "Devanagari",
] as const;
const scriptRe = (s: string) => new RegExp(`\\p{Script=${s}}`, "u");
const CJK_RE = CJK.map(scriptRe);
const ALPHABET_RE = ALPHABETS.map((s) => [s, scriptRe(s)] as const);

/** Cyrillic and Greek letters that look like Latin ones (Chromium's whole-script lists). */
const LATIN_LOOKALIKES = /^[\p{N}\-асԁеһіјӏорԛѕԝхуъьҽпгѵѡαικνορτυχ]+$/u;
/** Latin letters outside a–z that pass for a–z or for punctuation. */
const LATIN_CONFUSABLES = /[ɑɡıȷɩƖǀɪʟᴏᴄᴅɢʜᴊᴋᴍɴᴘʀꜱᴛᴜᴠᴡʏᴢ]/u;

/** Why a label of a canonical domain is refused as a homograph, or null when it is fine. */
export function homographReason(domain: string): string | null {
  if (!domain.includes("xn--")) return null;
  const labels = domainToUnicode(domain).split(".");
  // Under a Cyrillic or Greek top-level domain (.рф, .ελ) such names are what they seem.
  const asciiTld = /^[a-z0-9-]+$/.test(labels.at(-1) ?? "");
  for (const label of labels) {
    if (/^[a-z0-9-]*$/.test(label)) continue;
    if (!/^[\p{L}\p{M}\p{N}-]+$/u.test(label)) return `${label} 含有不可见或非文字字符`;
    const chars = [...label].filter((c) => /\p{L}/u.test(c));
    const alphabets = new Set<string>();
    let cjk = false;
    for (const c of chars) {
      const hit = ALPHABET_RE.find(([, re]) => re.test(c));
      if (hit) alphabets.add(hit[0]);
      else if (CJK_RE.some((re) => re.test(c))) cjk = true;
      else return `${label} 含有不支持的文字`;
    }
    if (alphabets.size > 1) return `${label} 混用了多种文字（${[...alphabets].join("、")}）`;
    if (cjk && alphabets.size && !alphabets.has("Latin"))
      return `${label} 混用了多种文字（${[...alphabets].join("、")}、中日韩文字）`;
    if (asciiTld && (alphabets.has("Cyrillic") || alphabets.has("Greek")) && LATIN_LOOKALIKES.test(label))
      return `${label} 的字母都与拉丁字母形似`;
    if (LATIN_CONFUSABLES.test(label)) return `${label} 含有与常见字母形似的字符`;
  }
  return null;
}

/**
 * The provider's own host names, which no customer may claim as (or under) a custom domain:
 * every node's subdomain host and host name, and the console's public host.
 */
async function providerHosts(db: Kysely<DB>, publicUrl: string | undefined): Promise<string[]> {
  const out = new Set(await nodeHostNames(db));
  if (publicUrl) out.add(new URL(publicUrl).hostname.toLowerCase());
  return [...out];
}

/** The provider host a domain equals or lies under, if any. */
const underProviderHost = (domain: string, hosts: readonly string[]): string | undefined =>
  hosts.find((h) => domain === h || domain.endsWith(`.${h}`));

/**
 * The names no customer may claim as a custom domain (a tunnel's or one to verify): the provider's
 * own hosts and look-alikes of other names.
 */
export async function domainNames(db: Kysely<DB>, publicUrl: string | undefined): Promise<DomainNames> {
  const hosts = await providerHosts(db, publicUrl);
  return {
    hosts,
    refusal(domain) {
      const apex = domainApex(domain);
      const host = underProviderHost(apex, hosts);
      if (host) return `属于服务商的域名 ${host}，不能作为自定义域名`;
      // frps routes a name nobody registered to the nearest wildcard above it: `*.example.net`
      // would receive every unused subdomain of a node whose subdomain host is frp.example.net.
      const covered = isWildcard(domain) ? hosts.find((h) => h.endsWith(`.${apex}`)) : undefined;
      if (covered) return `包含服务商的域名 ${covered}，不能作为自定义域名`;
      const homograph = homographReason(apex);
      return homograph ? `不能使用：${homograph}` : null;
    },
  };
}
