import { z } from "zod";
import { optionalInt, optionalText, PageQuery } from "./common";
import { domainApex, isWildcard } from "./custom-domain";
import { Id } from "./nodes";
import { CustomDomain } from "./tunnels";

export * from "./custom-domain";

/**
 * Customer domains (/domain, /tun/domain): a customer adds a domain, publishes the TXT record
 * `_burrow-challenge.<domain>` = its token and a CNAME to the chosen node, and verifies; only
 * verified domains serve as custom domains of http/https tunnels.
 */

/** The name of the TXT record that proves control of `domain` (of its apex for `*.<apex>`). */
export const challengeHost = (domain: string): string => `_burrow-challenge.${domainApex(domain)}`;

/**
 * The name whose CNAME (or A) record is checked for a domain: the domain itself, or for a wildcard
 * a fixed label under its apex, which the customer's `*.<apex>` record answers like any other.
 */
export const targetProbeHost = (domain: string): string =>
  isWildcard(domain) ? `_burrow-probe.${domainApex(domain)}` : domain;

/**
 * pending: added (or lapsed), not verified; verified; flagged: a daily re-check found the TXT
 * record gone, still usable until the grace period ends; unbound: taken away by an operator.
 */
export const DomainStates = ["pending", "verified", "flagged", "unbound"] as const;
export type DomainState = (typeof DomainStates)[number];
export const DOMAIN_STATE_LABELS: Record<DomainState, string> = {
  pending: "待验证",
  verified: "已验证",
  flagged: "记录缺失",
  unbound: "已解绑",
};

/** 京ICP备12345678号, 京ICP备12345678号-1, 粤B2-20090059 (an ICP licence) */
export const IcpNumber = z
  .string()
  .trim()
  .max(40, "备案号过长")
  .regex(
    /^[\u4e00-\u9fa5]ICP[备证]\d{4,12}号(-\d{1,4})?$|^[\u4e00-\u9fa5][A-Z]\d-\d{8}$/u,
    "ICP 备案号格式不正确，例如 京ICP备12345678号-1",
  );

/** POST /user/domain */
export const AddDomainBody = z.object({
  domain: CustomDomain,
  /** the node the CNAME points at (its subdomain host, or its host name) */
  node_id: Id,
  icp_no: z.preprocess((v) => (v === "" ? undefined : v), IcpNumber.optional()),
});
export type AddDomainBody = z.infer<typeof AddDomainBody>;

/** POST /user/domain/verify, DELETE /user/domain (body) */
export const DomainIdBody = z.object({ id: Id });
export type DomainIdBody = z.infer<typeof DomainIdBody>;

/** GET /user/domain */
export const DomainListQuery = PageQuery.extend({ domain: optionalText(253) });
export type DomainListQuery = z.infer<typeof DomainListQuery>;

/** One DNS record the customer must create, and what the last check found. */
export interface DomainRecord {
  type: "TXT" | "CNAME" | "A";
  /** the record's name */
  host: string;
  /** the value it must have */
  value: string;
}

/** A domain's check record: stored on its row, shown to the customer and to operators alike. */
export interface DomainChecks {
  icp_no: string | null;
  /** what the last check found missing or wrong, or why the domain was unbound */
  problem: string | null;
  verified_at: string | null;
  checked_at: string | null;
  flagged_at: string | null;
  unbind_reason: string | null;
}

export interface DomainView extends DomainChecks {
  id: number;
  domain: string;
  node_id: number;
  node_name: string;
  state: DomainState;
  /** the records to create: the TXT proof and the CNAME to the node */
  records: DomainRecord[];
  /** flagged: when its tunnels stop being accepted unless the TXT record is back */
  grace_until: string | null;
  /** the customer's tunnels that use it */
  tunnels: { tun_id: number; tun_name: string }[];
  created_at: string;
}

/** The result of POST /user/domain/verify: the domain, and whether it is verified now. */
export interface DomainVerifyResult {
  ok: boolean;
  domain: DomainView;
}

/** GET /super/domain */
export const AdminDomainListQuery = PageQuery.extend({
  domain: optionalText(253),
  uid: optionalInt(1),
  state: z.preprocess((v) => (v === "" ? undefined : v), z.enum(DomainStates).optional()),
});
export type AdminDomainListQuery = z.infer<typeof AdminDomainListQuery>;

export interface AdminDomainRow extends DomainChecks {
  id: number;
  uid: number;
  nickname: string;
  phone: string;
  domain: string;
  node_id: number;
  node_name: string;
  state: DomainState;
  unbound_at: string | null;
  tunnels: { tun_id: number; tun_name: string }[];
  created_at: string;
}

/** POST /super/domain/unbind */
export const AdminUnbindDomainBody = z.object({
  id: Id,
  reason: z.string().trim().min(1, "请填写解绑原因").max(200, "原因最多 200 个字符"),
});
export type AdminUnbindDomainBody = z.infer<typeof AdminUnbindDomainBody>;
