import { z } from "zod";
import { int, time } from "../answers";
import { DomainStates } from "../domains";

/* Answers of the custom-domain endpoints. */

/** What the domain checks found, shown to the customer and to operators alike. */
const DomainChecksShape = {
  icp_no: z.string().nullable().describe("ICP filing number, where the node's area needs one"),
  problem: z.string().nullable().describe("why the domain is not usable, in words for the customer"),
  verified_at: time().nullable(),
  checked_at: time().nullable(),
  flagged_at: time().nullable(),
  unbind_reason: z.string().nullable(),
};

const DomainTunnelsAnswer = z.array(z.strictObject({ tun_id: int(), tun_name: z.string() }));

export const DomainViewAnswer = z.strictObject({
  ...DomainChecksShape,
  id: int(),
  domain: z.string(),
  node_id: int(),
  node_name: z.string(),
  state: z.enum(DomainStates),
  records: z.array(z.strictObject({ type: z.enum(["TXT", "CNAME", "A"]), host: z.string(), value: z.string() })),
  grace_until: time().nullable(),
  tunnels: DomainTunnelsAnswer,
  created_at: time(),
});

export const DomainVerifyResultAnswer = z.strictObject({ ok: z.boolean(), domain: DomainViewAnswer });

export const AdminDomainRowAnswer = z.strictObject({
  ...DomainChecksShape,
  id: int(),
  uid: int(),
  nickname: z.string(),
  phone: z.string(),
  domain: z.string(),
  node_id: int(),
  node_name: z.string(),
  state: z.enum(DomainStates),
  unbound_at: time().nullable(),
  tunnels: DomainTunnelsAnswer,
  created_at: time(),
});
