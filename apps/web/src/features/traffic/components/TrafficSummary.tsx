import type { TrafficDay } from "@burrow/contract";
import { Card, Col, Row, Statistic, Typography } from "antd";
import { useMemo } from "react";
import { EChart } from "@/components/EChart";
import { type ResponsiveColumns, ResponsiveTable } from "@/components/ResponsiveTable";
import { formatBytes } from "@/lib/format";
import { IN_LABEL, OUT_LABEL, totalsBarOption } from "../chart-options";
import { TrafficChart } from "./TrafficChart";

interface Traffic {
  traffic_in: number;
  traffic_out: number;
}

/** What one breakdown (tunnels or nodes) shows: bars of each row's traffic beside a table of the rows. */
export interface Breakdown<T extends Traffic> {
  title: string;
  /** the chart's accessible name */
  label: string;
  /** undefined while loading */
  rows: T[] | undefined;
  /** a row's name on the chart (keep it stable: a module-level function) */
  nameOf: (row: T) => string;
  rowKey: keyof T & string;
  columns: ResponsiveColumns<T>;
  loading: boolean;
}

/**
 * What /traffic and /admin/flow both show for a date range: the totals, the daily chart, and one
 * breakdown (tunnels or nodes) as bars beside its table.
 */
export function TrafficSummary<T extends Traffic>({
  totals,
  days,
  breakdown,
}: {
  /** undefined while loading */
  totals: { in: number; out: number } | undefined;
  days: TrafficDay[];
  breakdown: Breakdown<T>;
}) {
  const { rows, nameOf } = breakdown;
  const items = useMemo(() => (rows ?? []).map((r) => ({ ...r, name: nameOf(r) })), [rows, nameOf]);
  const barOption = useMemo(() => totalsBarOption(items), [items]);
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
          <Col xs={24} xxl={12}>
            {items.length ? (
              <EChart option={barOption} label={breakdown.label} height={Math.max(220, items.length * 36 + 80)} />
            ) : (
              <Typography.Text type="secondary">所选范围内没有流量</Typography.Text>
            )}
          </Col>
          <Col xs={24} xxl={12}>
            <ResponsiveTable<T>
              rowKey={breakdown.rowKey}
              size="middle"
              columns={breakdown.columns}
              dataSource={rows}
              loading={breakdown.loading}
              pagination={{ pageSize: 10, hideOnSinglePage: true }}
            />
          </Col>
        </Row>
      </Card>
    </>
  );
}

/** 入站 and 出站 columns of a traffic table: bytes, right-aligned, `width` each. */
export function inOutColumns<T extends Traffic>(width: number): ResponsiveColumns<T> {
  return [
    { title: IN_LABEL, dataIndex: "traffic_in", width, align: "right", render: (v: number) => formatBytes(v) },
    { title: OUT_LABEL, dataIndex: "traffic_out", width, align: "right", render: (v: number) => formatBytes(v) },
  ];
}
