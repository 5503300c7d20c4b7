import { webcrypto } from "node:crypto";
import * as x509 from "@peculiar/x509";

x509.cryptoProvider.set(webcrypto as unknown as Crypto);

const EC = { name: "ECDSA", namedCurve: "P-256", hash: "SHA-256" } as const;
const DAY = 86_400_000;

/** A certificate built in a test, with its key (PKCS#8 PEM). */
export interface TestCert {
  cert: x509.X509Certificate;
  keys: CryptoKeyPair;
  pem: string;
  keyPem: string;
}

let serial = 1;

async function keyPem(keys: CryptoKeyPair): Promise<string> {
  const der = await webcrypto.subtle.exportKey("pkcs8", keys.privateKey as webcrypto.CryptoKey);
  const b64 = Buffer.from(der).toString("base64").replace(/.{64}/g, "$&\n");
  return `-----BEGIN PRIVATE KEY-----\n${b64.trimEnd()}\n-----END PRIVATE KEY-----\n`;
}

/**
 * Issues a test certificate: self-signed when no issuer is given (a root), else signed by it.
 * `names` become DNS (or IP) subject alternative names; `ca` makes it a CA; dates default to
 * a day ago … 90 days ahead.
 */
export async function makeCert(opts: {
  cn: string;
  names?: string[];
  issuer?: TestCert;
  ca?: boolean;
  notBefore?: Date;
  notAfter?: Date;
}): Promise<TestCert> {
  const keys = (await webcrypto.subtle.generateKey(EC, true, ["sign", "verify"])) as CryptoKeyPair;
  const extensions: x509.Extension[] = [];
  if (opts.names?.length)
    extensions.push(
      new x509.SubjectAlternativeNameExtension(
        opts.names.map((value) => ({ type: /^[\d.]+$/.test(value) ? "ip" : "dns", value }) as const),
      ),
    );
  if (opts.ca) {
    extensions.push(new x509.BasicConstraintsExtension(true, undefined, true));
    extensions.push(new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true));
  }
  const base = {
    serialNumber: (serial++).toString(16).padStart(2, "0"),
    notBefore: opts.notBefore ?? new Date(Date.now() - DAY),
    notAfter: opts.notAfter ?? new Date(Date.now() + 90 * DAY),
    signingAlgorithm: EC,
    extensions,
  };
  const cert = opts.issuer
    ? await x509.X509CertificateGenerator.create({
        ...base,
        subject: `CN=${opts.cn}`,
        issuer: opts.issuer.cert.subject,
        publicKey: keys.publicKey,
        signingKey: opts.issuer.keys.privateKey,
      })
    : await x509.X509CertificateGenerator.createSelfSigned({ ...base, name: `CN=${opts.cn}`, keys });
  return { cert, keys, pem: `${cert.toString("pem")}\n`, keyPem: await keyPem(keys) };
}

/** A root, an intermediate and a leaf for `names` (leaf options override the defaults). */
export async function makeChain(
  names: string[],
  leaf: { notBefore?: Date; notAfter?: Date } = {},
): Promise<{ root: TestCert; intermediate: TestCert; leaf: TestCert }> {
  const root = await makeCert({ cn: "Burrow Test Root", ca: true, notAfter: new Date(Date.now() + 3650 * DAY) });
  const intermediate = await makeCert({ cn: "Burrow Test Intermediate", ca: true, issuer: root });
  const l = await makeCert({ cn: names[0], names, issuer: intermediate, ...leaf });
  return { root, intermediate, leaf: l };
}

export { DAY };
