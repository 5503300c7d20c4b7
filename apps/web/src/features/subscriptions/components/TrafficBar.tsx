import { Progress, Typography } from "antd";
import { formatBytes } from "@/lib/format";
import { usedPercent } from "../usage";

/** Traffic used of a quota: a bar, and "已用 / 总量 · 剩余". */
export function TrafficBar({ used, quota, left }: { used: number; quota: number; left: number }) {
  const percent = usedPercent(used, quota);
  return (
    <div className="traffic-bar">
      <Progress
        percent={percent}
        size="small"
        status={percent >= 100 ? "exception" : "normal"}
        aria-label={`流量已用 ${percent}%`}
      />
      <Typography.Text type="secondary" className="traffic-bar-text">
        已用 {formatBytes(used)} / {formatBytes(quota)} · 剩余 {formatBytes(left)}
      </Typography.Text>
    </div>
  );
}
