import { RebateStateLabel, WithdrawalStatusLabel, type WithdrawMethod, WithdrawMethodLabel } from "@burrow/contract";
import { Tag } from "antd";

const REBATE_COLORS: Record<number, string> = { 1: "processing", 2: "success", 3: "default" };
const WITHDRAWAL_COLORS: Record<number, string> = { 1: "success", 2: "processing", 3: "error" };

/** A rebate's state: 待结算 / 已到账 / 已冲回. */
export const RebateStateTag = ({ state }: { state: number }) => (
  <Tag color={REBATE_COLORS[state]}>{RebateStateLabel[state] ?? state}</Tag>
);

/** A withdrawal's status, SPEC §4: 已完成 / 处理中 / 已驳回. */
export const WithdrawalStatusTag = ({ status }: { status: number }) => (
  <Tag color={WITHDRAWAL_COLORS[status]}>{WithdrawalStatusLabel[status] ?? status}</Tag>
);

/** Where the money goes, with the account when external. */
export function withdrawTarget(w: {
  method: WithdrawMethod;
  account: string | null;
  bank_name: string | null;
}): string {
  if (w.method === "balance") return "账户余额";
  return [WithdrawMethodLabel[w.method], w.bank_name, w.account].filter(Boolean).join(" · ");
}
