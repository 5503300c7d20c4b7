import type { TrafficDay } from "@burrow/contract";
import { Card, Col, Row, Statistic, Table, type TableColumnsType, Typography } from "antd";
import { type ReactNode, useMemo } from "react";
import { EChart } from "@/components/EChart";
import { formatBytes } from "@/lib/format";
import { totalsBarOption } from "../chart-options";
import { TrafficChart } from "./TrafficChart";

interface Named {
  name: string;
  traffic_in: number;
  traffic_out: number;
}

/**
 * What /traffic and /admin/flow both show for a date range: the totals, the daily chart, and one
 * breakdown (tunnels or nodes) as bars beside the caller's table.
 */
export function TrafficSummary({
  totals,
  days,
  breakdown,
}: {
  /** undefined while loading */
  totals: { in: number; out: number } | undefined;
  days: TrafficDay[];
  breakdown: { title: string; label: string; items: Named[]; table: ReactNode };
}) {
  const barOption = useMemo(() => totalsBarOption(breakdown.items), [breakdown.items]);
  const stats = [
    ["入站流量", totals?.in],
    ["出站流量", totals?.out],
    ["合计", totals && totals.in + totals.out],
  ] as const;
  return (
    <>
      <Row gutter={[16, 16]}>
        {stats.map(([title, value]) => (
          <Col key={title} xs={24} md={8}>
            <Card loading={value === undefined}>
              <Statistic title={title} value={formatBytes(value ?? 0)} />
            </Card>
          </Col>
        ))}
      </Row>
      <Card title="每日流量">
        <TrafficChart days={days} label="每日流量趋势" />
      </Card>
      <Card title={breakdown.title}>
        <Row gutter={[16, 16]}>
          <Col xs={24} xl={12}>
            {breakdown.items.length ? (
              <EChart
                option={barOption}
                label={breakdown.label}
                height={Math.max(220, breakdown.items.length * 36 + 80)}
              />
            ) : (
              <Typography.Text type="secondary">所选范围内没有流量</Typography.Text>
            )}
          </Col>
          <Col xs={24} xl={12}>
            {breakdown.table}
          </Col>
        </Row>
      </Card>
    </>
  );
}

/** The breakdown's table beside the bars: ten a page, no pager while one page holds all. */
export function BreakdownTable<T extends object>({
  rowKey,
  columns,
  rows,
  loading,
  scrollX,
}: {
  rowKey: keyof T & string;
  columns: TableColumnsType<T>;
  rows: T[] | undefined;
  loading: boolean;
  scrollX: number;
}) {
  return (
    <Table<T>
      rowKey={rowKey}
      size="middle"
      columns={columns}
      dataSource={rows}
      loading={loading}
      pagination={{ pageSize: 10, hideOnSinglePage: true }}
      scroll={{ x: scrollX }}
    />
  );
}
