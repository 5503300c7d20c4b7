import type { RebateRow, WithdrawalRow } from "@burrow/contract";
import { fenToYuan } from "@burrow/contract";
import { RiHandCoinLine } from "@remixicon/react";
import { useQuery } from "@tanstack/react-query";
import { Button, Typography } from "antd";
import { useState } from "react";
import { statusColumn, timeColumn } from "@/components/ListColumns";
import { PageContainer } from "@/components/PageContainer";
import { PagedTableCard } from "@/components/PagedTableCard";
import type { ResponsiveColumns } from "@/components/ResponsiveTable";
import { OrderTypeTag, tradeIdColumn } from "@/components/StoreTags";
import { formatTime } from "@/lib/format";
import { affSummaryQuery, myWithdrawalsQuery, rebateListQuery } from "../affiliate.api";
import { AffTotals } from "../components/AffTotals";
import { RebateStateTag, WithdrawalStatusTag, withdrawTarget } from "../components/WithdrawalTags";
import { WithdrawModal } from "../components/WithdrawModal";

const yuan = (fen: number) => fenToYuan(fen);

const rebateColumns: ResponsiveColumns<RebateRow> = [
  tradeIdColumn(),
  {
    title: "状态",
    role: "status",
    key: "state",
    width: 200,
    render: (_: unknown, r) => (
      <span>
        <RebateStateTag state={r.state} />
        {r.pending_reason ? <Typography.Text type="secondary">{r.pending_reason}</Typography.Text> : null}
      </span>
    ),
  },
  { title: "被邀请人", priority: 3, dataIndex: "invitee", width: 130 },
  { title: "类型", priority: 3, dataIndex: "order_type", width: 100, render: (t: number) => <OrderTypeTag type={t} /> },
  { title: "订单实付（元）", priority: 2, dataIndex: "order_amount", width: 120, align: "right", render: yuan },
  { title: "比例", priority: 4, dataIndex: "rate_bp", width: 80, render: (bp: number) => `${bp / 100}%` },
  {
    title: "返利（元）",
    priority: 2,
    key: "amount",
    width: 150,
    align: "right",
    render: (_: unknown, r) =>
      r.reversed > 0 ? (
        <span>
          {yuan(r.amount - r.reversed)}
          <Typography.Text type="secondary">（退款冲回 {yuan(r.reversed)}）</Typography.Text>
        </span>
      ) : (
        yuan(r.amount)
      ),
  },
  timeColumn("下单时间", "created_at", { priority: 3, width: 175 }),
  {
    title: "结算时间",
    priority: 4,
    key: "release",
    width: 175,
    render: (_: unknown, r) => formatTime(r.released_at ?? r.release_at),
  },
];

const withdrawalColumns: ResponsiveColumns<WithdrawalRow> = [
  { title: "编号", priority: 5, dataIndex: "id", width: 80 },
  { title: "金额（元）", priority: 2, dataIndex: "amount", width: 110, align: "right", render: yuan },
  { title: "提现到", priority: 2, key: "target", width: 260, render: (_: unknown, w) => withdrawTarget(w) },
  { title: "收款人", priority: 4, dataIndex: "account_name", width: 100, render: (v: string | null) => v ?? "-" },
  statusColumn("status", 90, (s: number) => <WithdrawalStatusTag status={s} />),
  {
    title: "说明",
    key: "note",
    render: (_: unknown, w) =>
      w.reason ? `驳回原因：${w.reason}` : w.payout_ref ? `付款流水号：${w.payout_ref}` : "-",
  },
  timeColumn("申请时间", "created_at", { width: 175 }),
  timeColumn("处理时间", "handled_at", { width: 175 }),
];

/** /aff/rebate: rebate rows with their order and state; withdrawal requests and their history. */
export function AffRebatePage() {
  const { data } = useQuery(affSummaryQuery());
  const [open, setOpen] = useState(false);
  if (!data) return null;
  const canWithdraw = data.available >= data.setting.min_withdraw;
  return (
    <PageContainer
      title="返利提现"
      description={`可提现返利满 ${fenToYuan(data.setting.min_withdraw)} 元可申请提现：提现到余额即时到账；提现到支付宝或银行卡由工作人员人工打款，需先完成实名认证、收款人为本人，同一时间只能有一笔处理中。被邀请人完成实名认证后，其订单的返利才会结算。`}
      extra={
        <Button
          type="primary"
          icon={<RiHandCoinLine size={16} />}
          disabled={!canWithdraw}
          onClick={() => setOpen(true)}
        >
          申请提现
        </Button>
      }
    >
      <AffTotals data={data} />
      <PagedTableCard title="返利明细" columns={rebateColumns} query={rebateListQuery} />
      <PagedTableCard title="提现记录" columns={withdrawalColumns} query={myWithdrawalsQuery} />
      <WithdrawModal open={open} onClose={() => setOpen(false)} summary={data} />
    </PageContainer>
  );
}
