import { type AdminWithdrawalRow, fenToYuan, WithdrawalSignalLabel } from "@burrow/contract";
import { Button, Space, Tag, Tooltip, Typography } from "antd";
import { amountColumn, customerColumn, statusColumn, timeColumn } from "@/components/ListColumns";
import type { ResponsiveColumns } from "@/components/ResponsiveTable";
import type { WithdrawalDecision } from "../components/WithdrawalDecisionModal";
import { WithdrawalStatusTag, withdrawTarget } from "../components/WithdrawalTags";

/**
 * The customer's verified name and whether an external request's payee matches it; a match on the
 * masked name only (verified before full names were kept) is flagged for a closer look.
 */
function VerifiedName({ row }: { row: AdminWithdrawalRow }) {
  if (!row.verified_name) return <Typography.Text type="secondary">未实名</Typography.Text>;
  const weak = row.name_matches === true && row.name_check === "masked";
  return (
    <span>
      {row.verified_name}
      {row.name_matches === false ? <Tag color="red">收款人不一致</Tag> : null}
      {row.name_matches === true && !weak ? <Tag color="green">收款人一致</Tag> : null}
      {weak ? (
        <Tooltip title="该用户在系统保存完整姓名校验值之前完成实名认证，只能比对姓名首字和字数；打款前请核对收款账户的实名信息">
          <Tag color="orange">仅首字和字数一致</Tag>
        </Tooltip>
      ) : null}
    </span>
  );
}

/** The withdrawal list's columns; a processing request offers 已打款 and 驳回 (`onDecide`). */
export function withdrawalColumns(
  onDecide: (d: NonNullable<WithdrawalDecision>) => void,
): ResponsiveColumns<AdminWithdrawalRow> {
  const columns: ResponsiveColumns<AdminWithdrawalRow> = [
    { title: "编号", priority: 5, dataIndex: "id", width: 80 },
    statusColumn("status", 90, (s: number) => <WithdrawalStatusTag status={s} />),
    customerColumn({ role: "title", width: 150 }),
    amountColumn({ priority: 2, width: 100 }),
    {
      // What the operator checks before paying out, together: where to, the payee, the verified
      // name it must match, and what became of the request.
      title: "收款",
      priority: 2,
      key: "payee",
      width: 250,
      render: (_: unknown, w) => (
        <Space orientation="vertical" size={0}>
          <span>{withdrawTarget(w)}</span>
          {w.account_name ? <span>收款人 {w.account_name}</span> : null}
          <span>
            实名 <VerifiedName row={w} />
          </span>
          {w.reason ? <Typography.Text type="secondary">驳回：{w.reason}</Typography.Text> : null}
          {w.payout_ref ? <Typography.Text type="secondary">流水号：{w.payout_ref}</Typography.Text> : null}
        </Space>
      ),
    },
    {
      title: "关联风险",
      priority: 2,
      key: "signals",
      width: 160,
      render: (_: unknown, w) =>
        w.signals.length ? (
          <Space size={[0, 4]} wrap data-testid={`signals-${w.id}`}>
            {w.signals.map((s) => (
              <Tooltip key={`${s.kind}-${s.detail}`} title={s.detail}>
                <Tag color="red">{WithdrawalSignalLabel[s.kind]}</Tag>
              </Tooltip>
            ))}
          </Space>
        ) : (
          <Typography.Text type="secondary">无</Typography.Text>
        ),
    },
    {
      title: "可提现余额（元）",
      priority: 4,
      dataIndex: "available",
      width: 140,
      align: "right",
      render: (f: number) => <Typography.Text type={f < 0 ? "danger" : undefined}>{fenToYuan(f)}</Typography.Text>,
    },
    timeColumn("申请时间", "created_at", { priority: 3, width: 175 }),
    timeColumn("处理时间", "handled_at", { priority: 5, width: 175 }),
    {
      title: "操作",
      key: "actions",
      width: 130,
      render: (_: unknown, row) =>
        row.status === 2 ? (
          <Space size={0}>
            <Button type="link" size="small" onClick={() => onDecide({ row, action: "approve" })}>
              已打款
            </Button>
            <Button type="link" size="small" danger onClick={() => onDecide({ row, action: "reject" })}>
              驳回
            </Button>
          </Space>
        ) : null,
    },
  ];
  return columns;
}
