import type { SubscriptionView } from "@burrow/contract";
import { Space, Tag, Typography } from "antd";
import { SubscriptionStatusTag } from "@/components/StoreTags";
import { formatBytes } from "@/lib/format";

/**
 * A subscription's status as the customer reads it: a plan another one replaced (the free plan
 * when a paid plan was bought, an upgrade's old plan) says by which, instead of a bare 已过期.
 */
export function SubscriptionState({ row }: { row: SubscriptionView }) {
  if (!row.replaced_by) return <SubscriptionStatusTag status={row.status} />;
  return (
    <Space orientation="vertical" size={0}>
      <Tag>已被取代</Tag>
      <Typography.Text type="secondary">由「{row.replaced_by.plan_name}」取代</Typography.Text>
    </Space>
  );
}

/** Where the free traffic (check-in bonus) of a subscription is, on its own line: carried to its successor, or in it. */
export function FreeTrafficNote({ row }: { row: SubscriptionView }) {
  const text =
    row.replaced_by && row.carried_quota > 0
      ? `未用完的赠送流量 ${formatBytes(row.carried_quota)} 已转入「${row.replaced_by.plan_name}」`
      : !row.replaced_by && row.free_quota > 0
        ? `含签到等赠送流量 ${formatBytes(row.free_quota)}`
        : null;
  return text ? (
    <div>
      <Typography.Text type="secondary">{text}</Typography.Text>
    </div>
  ) : null;
}
