import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { DAY, makeCert, makeChain, type TestCert } from "../../../test/certs";
import { checkUpload, nameCovers, splitPemCertificates } from "./pem";

const now = new Date();
let chain: { root: TestCert; intermediate: TestCert; leaf: TestCert };

beforeAll(async () => {
  chain = await makeChain(["www.example.com", "api.example.com"]);
});

function fails(certificate: string, privateKey: string, domain = "www.example.com"): string {
  try {
    checkUpload({ certificate, privateKey, domain, now });
  } catch (err) {
    return (err as Error).message;
  }
  throw new Error("accepted");
}

describe("wildcard and name rules", () => {
  it.each([
    ["www.example.com", "www.example.com", true],
    ["WWW.Example.com", "www.example.com", true],
    ["*.example.com", "www.example.com", true],
    ["*.example.com", "example.com", false],
    ["*.example.com", "a.b.example.com", false],
    ["w*.example.com", "www.example.com", false],
    ["*.com", "example.com", false],
    ["*.*.example.com", "a.b.example.com", false],
    ["example.com", "www.example.com", false],
  ])("%s covers %s: %s", (name, domain, ok) => {
    expect(nameCovers(name, domain)).toBe(ok);
  });
});

describe("checkUpload", () => {
  it("accepts a leaf + intermediate with its key and reads names, issuer, dates and fingerprint", () => {
    const c = checkUpload({
      certificate: chain.leaf.pem + chain.intermediate.pem,
      privateKey: chain.leaf.keyPem,
      domain: "api.example.com",
      now,
    });
    expect(c.names).toEqual(["www.example.com", "api.example.com"]);
    expect(c.issuer).toBe("Burrow Test Intermediate");
    expect(c.chainPem).toContain("BEGIN CERTIFICATE");
    expect(c.keyPem).toContain("BEGIN PRIVATE KEY");
    expect(c.fingerprint).toMatch(/^([0-9A-F]{2}:){31}[0-9A-F]{2}$/);
    expect(new Date(c.notAfter).getTime()).toBeGreaterThan(now.getTime());
    // A full chain up to the root is in order too.
    expect(() =>
      checkUpload({
        certificate: chain.leaf.pem + chain.intermediate.pem + chain.root.pem,
        privateKey: chain.leaf.keyPem,
        domain: "www.example.com",
        now,
      }),
    ).not.toThrow();
  });

  it("accepts a wildcard certificate for a one-level subdomain and an RSA key in PKCS#1 form", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "wt-ssl-pem-"));
    // An RSA key and certificate from the openssl CLI, as customers usually have them.
    execFileSync("openssl", ["genrsa", "-traditional", "-out", path.join(dir, "k.pem"), "2048"], { stdio: "ignore" });
    execFileSync(
      "openssl",
      ["req", "-x509", "-key", path.join(dir, "k.pem"), "-out", path.join(dir, "c.pem"), "-days", "30"].concat([
        "-subj",
        "/CN=*.example.org",
        "-addext",
        "subjectAltName=DNS:*.example.org,DNS:example.org",
      ]),
      { stdio: "ignore" },
    );
    const key = fs.readFileSync(path.join(dir, "k.pem"), "utf8");
    expect(key).toContain("BEGIN RSA PRIVATE KEY");
    const c = checkUpload({
      certificate: fs.readFileSync(path.join(dir, "c.pem"), "utf8"),
      privateKey: key,
      domain: "shop.example.org",
      now,
    });
    expect(c.names).toEqual(["*.example.org", "example.org"]);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("refuses what is not PEM, a key in the certificate box and text around the blocks", () => {
    expect(fails("hello", chain.leaf.keyPem)).toBe(
      "certificate: 不是 PEM 格式的证书：应以 -----BEGIN CERTIFICATE----- 开头",
    );
    expect(fails(chain.leaf.keyPem, chain.leaf.keyPem)).toBe("certificate: 证书框中粘贴了私钥，私钥请填在私钥框");
    expect(fails(`subject=CN=x\n${chain.leaf.pem}`, chain.leaf.keyPem)).toMatch(/PEM 块之外的文字/);
    expect(fails(chain.leaf.pem.replace(/[A-Za-z]{8}\n/, "AAAA\n"), chain.leaf.keyPem)).toBe(
      "certificate: 第 1 张证书无法解析，内容可能不完整或已损坏",
    );
  });

  it("refuses a broken, encrypted or misplaced key", () => {
    expect(fails(chain.leaf.pem, "nope")).toMatch(/^private_key: 不是 PEM 格式的私钥/);
    expect(fails(chain.leaf.pem, chain.leaf.pem)).toMatch(/^private_key: 私钥框中粘贴了证书/);
    expect(
      fails(chain.leaf.pem, "-----BEGIN ENCRYPTED PRIVATE KEY-----\nAAAA\n-----END ENCRYPTED PRIVATE KEY-----"),
    ).toBe("private_key: 私钥已加密（带密码保护），请上传未加密的私钥");
    expect(fails(chain.leaf.pem, "-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----")).toBe(
      "private_key: 私钥无法解析，内容可能不完整或已损坏",
    );
  });

  it("refuses a key that does not match the leaf, and says when it matches another certificate", () => {
    expect(fails(chain.leaf.pem + chain.intermediate.pem, chain.root.keyPem)).toBe(
      "private_key: 私钥与证书不匹配：这个私钥不是第一张证书（域名证书）的私钥",
    );
    expect(fails(chain.intermediate.pem + chain.leaf.pem, chain.leaf.keyPem)).toBe(
      "private_key: 私钥属于第 2 张证书，请把域名证书放在第一张，其后依次是中间证书",
    );
  });

  it("refuses a chain out of order or with a certificate that did not sign the one before", async () => {
    expect(fails(chain.leaf.pem + chain.root.pem + chain.intermediate.pem, chain.leaf.keyPem)).toBe(
      "certificate: 证书链顺序不正确：第 1 张证书（www.example.com）不是由第 2 张证书（Burrow Test Root）签发的，请按“域名证书、中间证书……”的顺序粘贴",
    );
    // Same subject name, another key: the names line up but the signature does not.
    const impostor = await makeCert({ cn: "Burrow Test Intermediate", ca: true });
    expect(fails(chain.leaf.pem + impostor.pem, chain.leaf.keyPem)).toMatch(
      /^certificate: 证书链顺序不正确：第 1 张证书/,
    );
    // A leaf "issuing" another leaf: not a CA.
    const child = await makeCert({ cn: "x.example.com", names: ["x.example.com"], issuer: chain.leaf });
    expect(fails(child.pem + chain.leaf.pem, child.keyPem, "x.example.com")).toBe(
      "certificate: 第 2 张证书（www.example.com）不是 CA 证书，不能签发其他证书",
    );
  });

  it("refuses an expired or not yet valid certificate, leaf or intermediate", async () => {
    const old = await makeChain(["www.example.com"], {
      notBefore: new Date(now.getTime() - 100 * DAY),
      notAfter: new Date(now.getTime() - DAY),
    });
    expect(fails(old.leaf.pem, old.leaf.keyPem)).toMatch(
      /^certificate: 证书已过期，到期时间 \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC$/,
    );
    const future = await makeChain(["www.example.com"], { notBefore: new Date(now.getTime() + DAY) });
    expect(fails(future.leaf.pem, future.leaf.keyPem)).toMatch(/^certificate: 证书尚未生效，生效时间 /);
    const root = await makeCert({ cn: "Root", ca: true });
    const staleIntermediate = await makeCert({
      cn: "Stale Intermediate",
      ca: true,
      issuer: root,
      notBefore: new Date(now.getTime() - 10 * DAY),
      notAfter: new Date(now.getTime() - DAY),
    });
    const leaf = await makeCert({ cn: "www.example.com", names: ["www.example.com"], issuer: staleIntermediate });
    expect(fails(leaf.pem + staleIntermediate.pem, leaf.keyPem)).toMatch(
      /^certificate: 第 2 张证书（Stale Intermediate）已过期/,
    );
  });

  it("refuses a certificate that does not cover the domain, naming what it covers", async () => {
    expect(fails(chain.leaf.pem, chain.leaf.keyPem, "shop.example.com")).toBe(
      "certificate: 证书不包含域名 shop.example.com（证书包含：www.example.com、api.example.com）",
    );
    const wild = await makeCert({ cn: "*.example.net", names: ["*.example.net"] });
    expect(fails(wild.pem, wild.keyPem, "example.net")).toBe(
      "certificate: 证书只包含 *.example.net，泛域名不覆盖 example.net 本身（证书包含：*.example.net）",
    );
    expect(fails(wild.pem, wild.keyPem, "a.b.example.net")).toBe(
      "certificate: 泛域名 *.example.net 只覆盖一级子域名，不覆盖 a.b.example.net（证书包含：*.example.net）",
    );
    const cnOnly = await makeCert({ cn: "www.example.com" });
    expect(fails(cnOnly.pem, cnOnly.keyPem)).toMatch(/^certificate: 证书没有主题备用名称（SAN）/);
  });

  it("splits and re-wraps certificate blocks", () => {
    const crlf = (chain.leaf.pem + chain.intermediate.pem).replace(/\n/g, "\r\n");
    expect(splitPemCertificates(crlf)).toEqual([chain.leaf.pem, chain.intermediate.pem]);
  });
});
