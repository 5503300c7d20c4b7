import { fenToYuan, type GiftCardRow, Kind } from "@burrow/contract";
import { Button, Space, Tag, Typography } from "antd";
import type { ResponsiveColumns } from "@/components/ResponsiveTable";
import { KindTag } from "@/components/StoreTags";
import { formatTime } from "@/lib/format";
import { giftCardState } from "../forms";

/** The gift card list's columns; the actions column only for an operator who may write. */
export function giftCardColumns({
  canWrite,
  onBatch,
  onEdit,
  onDelete,
}: {
  canWrite: boolean;
  /** Shows one batch (its number was clicked). */
  onBatch: (batchNo: string) => void;
  onEdit: (row: GiftCardRow) => void;
  onDelete: (row: GiftCardRow) => void;
}): ResponsiveColumns<GiftCardRow> {
  const columns: ResponsiveColumns<GiftCardRow> = [
    {
      title: "卡号",
      role: "title",
      dataIndex: "card_number",
      width: 210,
      render: (v: string) => <Typography.Text copyable>{v}</Typography.Text>,
    },
    {
      title: "状态",
      role: "status",
      key: "state",
      width: 200,
      render: (_: unknown, row) => {
        const state = giftCardState(row);
        if (state === "used") {
          return (
            <span>
              <Tag color="default">已兑换</Tag>UID {row.used_uid} · {formatTime(row.sub_time)}
            </span>
          );
        }
        return state === "expired" ? <Tag color="warning">已过期</Tag> : <Tag color="success">未使用</Tag>;
      },
    },
    { title: "类型", priority: 2, dataIndex: "type", width: 80, render: (t: number) => <KindTag kind={t} /> },
    {
      title: "内容",
      priority: 2,
      key: "value",
      width: 200,
      render: (_: unknown, row) =>
        row.type === Kind.Balance
          ? `¥${fenToYuan(row.card_value)}`
          : `${row.plan_name ?? "-"} × ${row.cycle_number} 个月`,
    },
    { title: "过期时间", priority: 3, dataIndex: "expire_date", width: 175, render: (v: string) => formatTime(v) },
    {
      title: "每人限兑",
      priority: 4,
      dataIndex: "one_user_limit",
      width: 90,
      render: (n: number) => (n > 0 ? `${n} 张` : "不限"),
    },
    {
      title: "批次",
      priority: 3,
      dataIndex: "batch_no",
      width: 200,
      render: (v: string) => (
        <Button type="link" size="small" onClick={() => onBatch(v)}>
          {v}
        </Button>
      ),
    },
    { title: "生成时间", priority: 4, dataIndex: "created_at", width: 175, render: (v: string) => formatTime(v) },
  ];
  if (canWrite) {
    columns.push({
      title: "操作",
      key: "actions",
      width: 120,
      render: (_: unknown, row) =>
        row.used_uid === null ? (
          <Space size={0}>
            <Button type="link" size="small" onClick={() => onEdit(row)}>
              编辑
            </Button>
            <Button type="link" size="small" danger onClick={() => onDelete(row)}>
              删除
            </Button>
          </Space>
        ) : (
          "-"
        ),
    });
  }
  return columns;
}
