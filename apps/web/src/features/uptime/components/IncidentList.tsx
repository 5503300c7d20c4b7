import { UptimeCauseLabel, type UptimeIncident } from "@burrow/contract";
import { Table, Tag } from "antd";
import { formatTime } from "@/lib/format";
import { durationText } from "./UptimeBars";

/** Outages longer than two minutes, newest first. */
export function IncidentList({ incidents }: { incidents: UptimeIncident[] }) {
  return (
    <Table
      size="small"
      rowKey="start"
      dataSource={incidents}
      pagination={incidents.length > 10 ? { pageSize: 10 } : false}
      locale={{ emptyText: "近 90 天没有超过两分钟的中断" }}
      columns={[
        { title: "开始", dataIndex: "start", render: (v: string) => formatTime(v) },
        {
          title: "结束",
          dataIndex: "end",
          render: (v: string | null) => (v ? formatTime(v) : <Tag color="red">仍在中断</Tag>),
        },
        { title: "时长", dataIndex: "duration_ms", render: (v: number) => durationText(v) },
        { title: "原因", dataIndex: "cause", render: (v: UptimeIncident["cause"]) => UptimeCauseLabel[v] },
      ]}
    />
  );
}
