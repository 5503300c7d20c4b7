import { type UptimeDay, uptimeLevel } from "@burrow/contract";
import { Tooltip, Typography } from "antd";

const COLOURS = { green: "#52c41a", amber: "#faad14", red: "#f5222d", none: "#e8e8e8" } as const;

const durationText = (ms: number) => {
  const m = Math.round(ms / 60_000);
  return m < 60 ? `${m} 分钟` : `${Math.floor(m / 60)} 小时 ${m % 60} 分钟`;
};

/** One bar per Shanghai day (oldest first): green / amber / red by uptime %, grey when nothing is known. */
export function UptimeBars({ days, pct }: { days: UptimeDay[]; pct: number | null }) {
  return (
    <div>
      <div data-testid="uptime-bars" style={{ display: "flex", gap: 2, height: 32, alignItems: "stretch" }}>
        {days.map((d) => (
          <Tooltip
            key={d.day}
            title={
              d.pct === null
                ? `${d.day}：暂无数据`
                : `${d.day}：可用率 ${d.pct.toFixed(2)}%${d.down_ms ? `，中断 ${durationText(d.down_ms)}` : ""}`
            }
          >
            <div
              data-day={d.day}
              data-level={uptimeLevel(d.pct)}
              style={{ flex: 1, minWidth: 2, borderRadius: 2, background: COLOURS[uptimeLevel(d.pct)] }}
            />
          </Tooltip>
        ))}
      </div>
      <div style={{ display: "flex", justifyContent: "space-between", marginTop: 4 }}>
        <Typography.Text type="secondary">90 天前</Typography.Text>
        <Typography.Text type="secondary" data-testid="uptime-pct">
          {pct === null ? "暂无数据" : `90 天可用率 ${pct.toFixed(2)}%`}
        </Typography.Text>
        <Typography.Text type="secondary">今天</Typography.Text>
      </div>
    </div>
  );
}

export { durationText };
