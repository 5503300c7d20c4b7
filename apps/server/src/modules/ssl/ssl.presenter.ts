import { domainApex, type SslCertView, type SslChallenge, type SslOrderView, type SslStep } from "@burrow/contract";
import { DAY_MS } from "../../shared/time";
import { ENDED } from "./ssl.repository";
import type { SslCertificateRow, SslOrderRow } from "./ssl.table";

/** The DNS-01 record of a name; a wildcard's is its apex's (RFC 8555 §8.4). */
export const acmeRecordName = (domain: string): string => `_acme-challenge.${domainApex(domain)}`;

/** A day of an ISO time, as the customer's notices name it. */
export const fmtDay = (iso: string) => iso.slice(0, 10);

export function certView(r: SslCertificateRow, now: Date): SslCertView {
  return {
    id: r.id,
    domain: r.domain,
    source: r.source as SslCertView["source"],
    names: JSON.parse(r.names) as string[],
    issuer: r.issuer,
    has_chain: r.chain_pem !== "",
    not_before: r.not_before,
    not_after: r.not_after,
    days_left: Math.floor((new Date(r.not_after).getTime() - now.getTime()) / DAY_MS),
    fingerprint: r.fingerprint,
    notice: r.notice,
    notice_at: r.notice_at,
    created_at: r.created_at,
    updated_at: r.updated_at,
  };
}

/** What the customer has to put in place for an issue. */
export function recordOf(r: SslOrderRow): SslOrderView["record"] {
  if (!r.record_value) return null;
  return r.challenge === "dns-01"
    ? { name: acmeRecordName(r.domain), value: r.record_value }
    : { name: `http://${r.domain}/.well-known/acme-challenge/${r.token}`, value: r.record_value };
}

export function orderView(r: SslOrderRow): SslOrderView {
  return {
    id: r.id,
    domain: r.domain,
    challenge: r.challenge as SslChallenge,
    step: r.step as SslStep,
    cert_id: r.cert_id,
    renewal: r.renewal === 1,
    record: ENDED.includes(r.step as SslStep) ? null : recordOf(r),
    message: r.message,
    history: JSON.parse(r.history) as SslOrderView["history"],
    checks: r.checks,
    next_check_at: r.next_check_at,
    created_at: r.created_at,
    updated_at: r.updated_at,
  };
}
