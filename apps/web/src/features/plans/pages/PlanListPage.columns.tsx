import { type AdminPlan, applyMultiplier, fenToYuan, PlanPeriodLabel, PlanPeriods } from "@burrow/contract";
import { Space, Tag, Typography } from "antd";
import type { ReactNode } from "react";
import { statusColumn } from "@/components/ListColumns";
import type { ResponsiveColumns } from "@/components/responsive-columns";
import { PlanTypeTag } from "@/components/StoreTags";
import { bandwidthText, discountText } from "@/features/store/pricing";

/** The periods a plan sells, one line each: "季付 ¥27.00 ¥24.30 9折". */
function PlanPrices({ plan }: { plan: AdminPlan }) {
  const lines = PlanPeriods.filter((p) => plan[`${p}_fee`] !== null);
  if (lines.length === 0) return <Typography.Text type="secondary">未定价</Typography.Text>;
  return (
    <div className="plan-prices">
      {lines.map((p) => {
        const fee = plan[`${p}_fee`] ?? 0;
        const discount = plan[`${p}_fee_discount`];
        // The list has fen already: the multiplier applies to them directly (no trip through yuan).
        const price = applyMultiplier(fee, discount);
        return (
          <div key={p}>
            {PlanPeriodLabel[p]} ¥{fenToYuan(price)}
            {discount < 1 ? (
              <>
                {" "}
                <Typography.Text delete type="secondary">
                  ¥{fenToYuan(fee)}
                </Typography.Text>{" "}
                <Tag color="red">{discountText(discount)}</Tag>
              </>
            ) : null}
          </div>
        );
      })}
    </div>
  );
}

/**
 * /admin/plan's columns (without 操作). The on-sale switch and the prices come first after the
 * name (issue 35 §5); limits, usage and sort order go into the detail on a narrow screen.
 */
export function planColumns(onSale: (on: boolean, row: AdminPlan) => ReactNode): ResponsiveColumns<AdminPlan> {
  return [
    { title: "ID", priority: 6, dataIndex: "id", width: 70 },
    {
      title: "名称",
      role: "title",
      dataIndex: "name",
      width: 200,
      render: (name: string, row) => (
        <Space size={4} wrap>
          <span>{name}</span>
          {row.tag ? <Tag color="blue">{row.tag}</Tag> : null}
          {row.is_default ? <Tag color="gold">默认</Tag> : null}
        </Space>
      ),
    },
    { title: "类型", priority: 3, dataIndex: "type", width: 90, render: (type: number) => <PlanTypeTag type={type} /> },
    { title: "等级", priority: 2, dataIndex: "level_name", width: 90, render: (v: string | null) => v ?? "-" },
    { title: "流量（GB/月）", priority: 3, dataIndex: "traffic", width: 110, align: "right" },
    { title: "带宽", priority: 4, dataIndex: "bandwidth", width: 100, render: (v: number) => bandwidthText(v) },
    {
      title: "隧道 / 端口",
      priority: 4,
      key: "limits",
      width: 110,
      render: (_: unknown, row) => `${row.tunnel_limit} / ${row.tunnel_peer_port_limit}`,
    },
    { title: "价格", priority: 2, key: "prices", width: 240, render: (_: unknown, row) => <PlanPrices plan={row} /> },
    statusColumn("on_sale", 80, (on: boolean, row) => onSale(on, row), "在售"),
    { title: "使用中", priority: 4, dataIndex: "live_subscriptions", width: 80, align: "right" },
    { title: "排序", priority: 5, dataIndex: "sort", width: 70, align: "right" },
  ];
}
