import { type AdminWithdrawalRow, fenToYuan, WithdrawalSignalLabel } from "@burrow/contract";
import { useQueryClient } from "@tanstack/react-query";
import { Typography } from "antd";
import { FormModal } from "@/components/FormModal";
import { TextItem } from "@/components/form/TextItem";
import { affKeys, decideWithdrawal } from "../affiliate.api";
import { withdrawTarget } from "./WithdrawalTags";

export type WithdrawalDecision = { row: AdminWithdrawalRow; action: "approve" | "reject" } | null;

/**
 * Approves a processing external request once paid out by hand (the payout reference) or rejects
 * it with a reason (the amount returns to the customer's available rebate); closed when null.
 */
export function WithdrawalDecisionModal({ decision, onClose }: { decision: WithdrawalDecision; onClose: () => void }) {
  const queryClient = useQueryClient();
  const approving = decision?.action === "approve";

  const submit = async (v: { payout_ref?: string; reason?: string }) => {
    if (!decision) return;
    await decideWithdrawal({ id: decision.row.id, action: decision.action, ...v });
    await queryClient.invalidateQueries({ queryKey: affKeys.all });
  };

  return (
    <FormModal<{ payout_ref?: string; reason?: string }>
      open={decision !== null}
      title={approving ? `确认已打款（编号 ${decision?.row.id}）` : `驳回提现（编号 ${decision?.row.id}）`}
      okText={approving ? "确认已打款" : "驳回"}
      onSubmit={submit}
      onClose={onClose}
      successText={approving ? "已标记为已完成" : "已驳回，金额已退回用户的可提现返利"}
    >
      {decision ? (
        <Typography.Paragraph>
          {fenToYuan(decision.row.amount)} 元 → {withdrawTarget(decision.row)}
          {decision.row.account_name ? `（${decision.row.account_name}）` : ""}
          {decision.row.signals.map((s) => (
            <Typography.Text key={`${s.kind}-${s.detail}`} type="danger" style={{ display: "block" }}>
              {WithdrawalSignalLabel[s.kind]}：{s.detail}
            </Typography.Text>
          ))}
        </Typography.Paragraph>
      ) : null}
      {approving ? (
        <TextItem
          name="payout_ref"
          label="付款流水号"
          required
          length={{ max: 100 }}
          placeholder="支付宝或银行的转账流水号"
        />
      ) : (
        <TextItem name="reason" label="驳回原因" required length={{ max: 200 }} rows={3} />
      )}
    </FormModal>
  );
}
