import { TunnelStatus, TunnelStatusLabel } from "@burrow/contract";
import { Space, Tag, Tooltip } from "antd";

const statusColor: Record<number, string> = {
  [TunnelStatus.Connected]: "success",
  [TunnelStatus.Offline]: "default",
  [TunnelStatus.Locked]: "error",
  [TunnelStatus.Deleted]: "default",
};

export interface TunnelStatusTagProps {
  status: number;
  /** false: turned off by its owner */
  enabled?: boolean;
  /** shown on hover of a locked tunnel */
  bannedReason?: string | null;
}

/** A tunnel's status (SPEC §4 labels), with 已停用 when its owner turned it off. */
export function TunnelStatusTag({ status, enabled = true, bannedReason }: TunnelStatusTagProps) {
  const tag = <Tag color={statusColor[status] ?? "default"}>{TunnelStatusLabel[status] ?? `状态 ${status}`}</Tag>;
  return (
    <Space size={0}>
      {status === TunnelStatus.Locked && bannedReason ? (
        <Tooltip title={`锁定原因：${bannedReason}`}>
          <span>{tag}</span>
        </Tooltip>
      ) : (
        tag
      )}
      {!enabled && status !== TunnelStatus.Deleted ? <Tag color="warning">已停用</Tag> : null}
    </Space>
  );
}
