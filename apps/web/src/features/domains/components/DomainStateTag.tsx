import { DOMAIN_STATE_LABELS, type DomainState } from "@burrow/contract";
import { Tag } from "antd";

const color: Record<DomainState, string> = {
  pending: "default",
  verified: "success",
  flagged: "warning",
  unbound: "error",
};

export function DomainStateTag({ state }: { state: DomainState }) {
  return <Tag color={color[state]}>{DOMAIN_STATE_LABELS[state] ?? state}</Tag>;
}
