import type { NoticeSettings, NoticeView, Paged } from "@burrow/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DAY, makeChain } from "../../../test/certs";
import type { TestDnsServer } from "../../../test/dns-server";
import { domainSuite, GRACE_HOURS } from "../../../test/domain-fixtures";
import type { TestApp } from "../../../test/harness";
import { type Inbox, startSmtp, subjectOf, textOf } from "../../../test/smtp-fixtures";
import { dispatchOutbox } from "../../shared/outbox-dispatch";
import { recheckDomains } from "../domains/domains.service";
import { recordCertsExpiring } from "../ssl/expiry-events";
import { checkUpload } from "../ssl/pem";
import { storeCertificate } from "../ssl/uploads";

/*
 * The certificate and domain notices (docs/notices.md): ssl records cert.expiring (its hourly job)
 * and cert.renewed (a renewal stored), domains records domain.verification_lost (the re-check
 * lapsing a verified domain); each reaches the notification centre and the e-mail the customer
 * chose, against a real DNS server and a real SMTP server.
 */

let smtp: Inbox;
beforeAll(async () => {
  smtp = await startSmtp();
});
afterAll(() => smtp?.close());
const suite = domainSuite(() => ({
  SMTP_URL: smtp.url,
  MAIL_FROM: "Burrow <noreply@burrow.test>",
  SSL_KEY_SECRET: "an-ssl-key-secret-for-the-tests-0123456789",
}));
let t: TestApp;
let dns: TestDnsServer;
beforeAll(() => {
  ({ t, dns } = suite.get());
});

/** A customer with a verified domain and a verified notice address. */
async function customer() {
  const c = await suite.customer();
  const domain = await suite.owned(c);
  const address = `c${c.uid}@example.com`;
  expect((await t.api("POST", "/user/notice/email", { token: c.token, body: { email: address } })).body.code).toBe(
    "SUCCESS",
  );
  const code = /验证码是 (\d{6})/.exec(textOf([...smtp.mails].reverse().find((m) => m.to.includes(address))!.raw))?.[1];
  const ok = await t.api<NoticeSettings>("POST", "/user/notice/email/verify", { token: c.token, body: { code } });
  expect(ok.body.data.email?.verified).toBe(true);
  return { ...c, domain, address };
}

/** The customer's certificate for the domain, ending `days` from now, stored as the ssl module stores one. */
async function storeCert(uid: number, domain: string, days: number, renewed = false) {
  const { leaf, intermediate } = await makeChain([domain], { notAfter: new Date(Date.now() + days * DAY) });
  const checked = checkUpload({
    certificate: leaf.pem + intermediate.pem,
    privateKey: leaf.keyPem,
    domain,
    now: new Date(),
  });
  await storeCertificate(t.ctx, uid, domain, renewed ? "acme" : "upload", checked, null, new Date(), renewed);
}

const titles = async (token: string) =>
  (await t.api<Paged<NoticeView>>("GET", "/user/notice", { token })).body.data.list.map((n) => n.title);
const mailed = (address: string, since: number) =>
  smtp.mails
    .slice(since)
    .filter((m) => m.to.includes(address))
    .map((m) => subjectOf(m.raw));

describe("certificate and domain notices", () => {
  it("cert.expiring: the hourly job's reminder reaches the list and the e-mail (its defaults), once", async () => {
    const c = await customer();
    const before = smtp.mails.length;
    await storeCert(c.uid, c.domain.domain, 5);
    await recordCertsExpiring(t.ctx);
    await recordCertsExpiring(t.ctx);
    await dispatchOutbox(t.ctx);
    const title = `证书将在 7 天后到期：${c.domain.domain}`;
    expect((await titles(c.token)).filter((x) => x === title)).toHaveLength(1);
    expect(mailed(c.address, before)).toEqual([`【Burrow】${title}`]);
  });

  it("cert.renewed: in the list only by default; by e-mail too once the customer chooses it", async () => {
    const c = await customer();
    await storeCert(c.uid, c.domain.domain, 20);
    const before = smtp.mails.length;
    await storeCert(c.uid, c.domain.domain, 90, true);
    await dispatchOutbox(t.ctx);
    const title = `证书已续期：${c.domain.domain}`;
    expect(await titles(c.token)).toContain(title);
    expect(mailed(c.address, before)).toEqual([]);

    const set = await t.api("PUT", "/user/notice/settings", {
      token: c.token,
      body: { type: "cert.renewed", channels: ["site", "email"] },
    });
    expect(set.body.code).toBe("SUCCESS");
    await storeCert(c.uid, c.domain.domain, 91, true);
    await dispatchOutbox(t.ctx);
    expect((await titles(c.token)).filter((x) => x === title)).toHaveLength(2);
    expect(mailed(c.address, before)).toEqual([`【Burrow】${title}`]);
  });

  it("domain.verification_lost: the re-check lapsing the domain tells the customer; e-mail off, the list only", async () => {
    const c = await customer();
    const off = await t.api("PUT", "/user/notice/settings", {
      token: c.token,
      body: { type: "domain.verification_lost", channels: ["site"] },
    });
    expect(off.body.code).toBe("SUCCESS");
    const other = await customer();
    const before = smtp.mails.length;
    for (const d of [c.domain, other.domain]) await dns.clearTxt(`_burrow-challenge.${d.domain}`);
    // first missed past the grace period, then re-checked: lapsed
    await recheckDomains(t.ctx, new Date(Date.now() - (GRACE_HOURS + 1) * 3_600_000));
    await recheckDomains(t.ctx);
    await dispatchOutbox(t.ctx);
    const title = (d: { domain: string }) => `域名验证失效：${d.domain}`;
    expect(await titles(c.token)).toContain(title(c.domain));
    expect(await titles(c.token)).not.toContain(title(other.domain));
    expect(mailed(c.address, before)).toEqual([]);
    // the other customer kept the defaults: the list and the e-mail
    expect(await titles(other.token)).toContain(title(other.domain));
    expect(mailed(other.address, before)).toEqual([`【Burrow】${title(other.domain)}`]);
  });
});
