import { createPrivateKey, type KeyObject, X509Certificate } from "node:crypto";
import { invalid } from "../../shared/errors";

/** A certificate (leaf + intermediates) and its key, checked and ready to store. */
export interface CheckedCertificate {
  leafPem: string;
  /** the intermediates in order, PEM, "" when none */
  chainPem: string;
  /** the private key as PKCS#8 PEM */
  keyPem: string;
  names: string[];
  issuer: string;
  fingerprint: string;
  notBefore: string;
  notAfter: string;
}

const PEM_BLOCK = /-----BEGIN ([A-Z0-9 ]+)-----\r?\n([\s\S]*?)-----END \1-----/g;

/** The CERTIFICATE blocks of a PEM text, in order; refuses other blocks and stray text. */
export function splitPemCertificates(text: string, field = "certificate"): string[] {
  const blocks = [...text.matchAll(PEM_BLOCK)];
  if (!blocks.length) throw invalid(field, "不是 PEM 格式的证书：应以 -----BEGIN CERTIFICATE----- 开头");
  const rest = text.replace(PEM_BLOCK, "").trim();
  if (rest) throw invalid(field, "证书内容中有 PEM 块之外的文字，请只粘贴 -----BEGIN/END CERTIFICATE----- 块");
  return blocks.map((b, i) => {
    if (b[1] !== "CERTIFICATE")
      throw invalid(
        field,
        b[1].includes("PRIVATE KEY")
          ? "证书框中粘贴了私钥，私钥请填在私钥框"
          : `第 ${i + 1} 个 PEM 块是 ${b[1]}，这里只接受 CERTIFICATE`,
      );
    return `-----BEGIN CERTIFICATE-----\n${b[2].replace(/\s+/g, "").replace(/.{64}/g, "$&\n").trimEnd()}\n-----END CERTIFICATE-----\n`;
  });
}

/** The DNS names of a certificate's subject alternative names (lower case). */
export function dnsNames(cert: X509Certificate): string[] {
  return (cert.subjectAltName ?? "")
    .split(/,\s*/)
    .filter((e) => e.startsWith("DNS:"))
    .map((e) => e.slice(4).toLowerCase());
}

/**
 * Whether a certificate name covers `domain` (RFC 6125 §6.4.3 as browsers apply it): the same
 * name, or a wildcard `*.<parent>` standing for exactly one whole leftmost label — `*.a.com`
 * covers `x.a.com` but not `a.com` nor `y.x.a.com`; partial wildcards (`w*.a.com`) and
 * wildcards right under a public suffix-like single label (`*.com`) cover nothing.
 */
export function nameCovers(name: string, domain: string): boolean {
  const n = name.toLowerCase().replace(/\.$/, "");
  const d = domain.toLowerCase();
  if (!n.includes("*")) return n === d;
  if (!n.startsWith("*.") || n.slice(2).includes("*")) return false;
  const parent = n.slice(2);
  if (!parent.includes(".")) return false;
  const dot = d.indexOf(".");
  return dot > 0 && d.slice(dot + 1) === parent;
}

/** Why none of the names covers the domain, precisely. */
function coverageMessage(names: string[], domain: string): string {
  const list = names.join("、");
  const parentWildcard = names.find((n) => n === `*.${domain}`);
  if (parentWildcard) return `证书只包含 ${parentWildcard}，泛域名不覆盖 ${domain} 本身（证书包含：${list}）`;
  const deeper = names.find((n) => n.startsWith("*.") && domain.endsWith(`.${n.slice(2)}`));
  if (deeper) return `泛域名 ${deeper} 只覆盖一级子域名，不覆盖 ${domain}（证书包含：${list}）`;
  return `证书不包含域名 ${domain}（证书包含：${list}）`;
}

/** "CN" of a distinguished name as Node prints it (one attribute a line), else its "O", else all of it. */
export function commonName(dn: string): string {
  const attr = (k: string) =>
    dn
      .split("\n")
      .find((l) => l.startsWith(`${k}=`))
      ?.slice(k.length + 1);
  return attr("CN") ?? attr("O") ?? dn.replace(/\n/g, ", ");
}

/** A certificate starting this little after our clock is taken as valid (clocks differ; CAs issue "now"). */
const CLOCK_SKEW_MS = 5 * 60_000;

const fmt = (d: Date) => `${d.toISOString().replace("T", " ").slice(0, 19)} UTC`;

function parseKey(text: string): KeyObject {
  if (/ENCRYPTED PRIVATE KEY|Proc-Type: 4,ENCRYPTED/.test(text))
    throw invalid("private_key", "私钥已加密（带密码保护），请上传未加密的私钥");
  if (/BEGIN CERTIFICATE/.test(text))
    throw invalid("private_key", "私钥框中粘贴了证书，请粘贴以 -----BEGIN PRIVATE KEY----- 开头的私钥");
  if (!/-----BEGIN (RSA |EC )?PRIVATE KEY-----/.test(text))
    throw invalid(
      "private_key",
      "不是 PEM 格式的私钥：应以 -----BEGIN PRIVATE KEY-----（或 RSA / EC PRIVATE KEY）开头",
    );
  try {
    return createPrivateKey({ key: text, format: "pem" });
  } catch {
    throw invalid("private_key", "私钥无法解析，内容可能不完整或已损坏");
  }
}

/**
 * Checks an uploaded certificate for `domain`, in the order a customer can fix things: readable
 * certificates, a readable unencrypted key, the key belongs to the first certificate, each
 * certificate is issued (and signed) by the next one, every certificate is valid at `now`, the
 * first one covers the domain. Each failure is a 400 naming the field with a precise message.
 */
export function checkUpload(input: {
  certificate: string;
  privateKey: string;
  domain: string;
  now: Date;
}): CheckedCertificate {
  const pems = splitPemCertificates(input.certificate);
  const certs = pems.map((pem, i) => {
    try {
      return new X509Certificate(pem);
    } catch {
      throw invalid("certificate", `第 ${i + 1} 张证书无法解析，内容可能不完整或已损坏`);
    }
  });
  const key = parseKey(input.privateKey);
  if (key.asymmetricKeyType === "rsa" && (key.asymmetricKeyDetails?.modulusLength ?? 0) < 2048)
    throw invalid("private_key", `RSA 私钥只有 ${key.asymmetricKeyDetails?.modulusLength} 位，至少需要 2048 位`);
  const leaf = certs[0];
  if (!leaf.checkPrivateKey(key)) {
    const other = certs.findIndex((c) => c.checkPrivateKey(key));
    throw invalid(
      "private_key",
      other > 0
        ? `私钥属于第 ${other + 1} 张证书，请把域名证书放在第一张，其后依次是中间证书`
        : "私钥与证书不匹配：这个私钥不是第一张证书（域名证书）的私钥",
    );
  }
  for (let i = 0; i + 1 < certs.length; i++) {
    const [child, parent] = [certs[i], certs[i + 1]];
    if (!child.checkIssued(parent) || !child.verify(parent.publicKey))
      throw invalid(
        "certificate",
        `证书链顺序不正确：第 ${i + 1} 张证书（${commonName(child.subject)}）不是由第 ${i + 2} 张证书（${commonName(parent.subject)}）签发的，请按“域名证书、中间证书……”的顺序粘贴`,
      );
    if (!parent.ca)
      throw invalid("certificate", `第 ${i + 2} 张证书（${commonName(parent.subject)}）不是 CA 证书，不能签发其他证书`);
  }
  const now = input.now.getTime();
  certs.forEach((c, i) => {
    const what = i === 0 ? "证书" : `第 ${i + 1} 张证书（${commonName(c.subject)}）`;
    if (new Date(c.validFrom).getTime() > now + CLOCK_SKEW_MS)
      throw invalid("certificate", `${what}尚未生效，生效时间 ${fmt(new Date(c.validFrom))}`);
    if (new Date(c.validTo).getTime() < now)
      throw invalid("certificate", `${what}已过期，到期时间 ${fmt(new Date(c.validTo))}`);
  });
  const names = dnsNames(leaf);
  if (!names.length)
    throw invalid("certificate", "证书没有主题备用名称（SAN）中的域名，浏览器不会接受只写在 CN 里的域名");
  if (!names.some((n) => nameCovers(n, input.domain)))
    throw invalid("certificate", coverageMessage(names, input.domain));
  return {
    leafPem: pems[0],
    chainPem: pems.slice(1).join(""),
    keyPem: key.export({ type: "pkcs8", format: "pem" }).toString(),
    names,
    issuer: commonName(leaf.issuer),
    fingerprint: leaf.fingerprint256,
    notBefore: new Date(leaf.validFrom).toISOString(),
    notAfter: new Date(leaf.validTo).toISOString(),
  };
}
