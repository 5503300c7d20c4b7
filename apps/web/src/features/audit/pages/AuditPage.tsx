import {
  AUDIT_ACTIONS,
  type AuditAction,
  type AuditChange,
  type AuditOperator,
  type AuditRow,
  auditActionLabel,
} from "@burrow/contract";
import { useQuery } from "@tanstack/react-query";
import { Card, Form, Grid, Select, Table, type TableColumnsType, Tag, Typography } from "antd";
import { timeColumn } from "@/components/ListColumns";
import { PageContainer } from "@/components/PageContainer";
import { SearchCard } from "@/components/SearchCard";
import { SelectFilter } from "@/components/SearchFields";
import { useUrlFilters } from "@/hooks/useUrlFilters";
import { formatTime } from "@/lib/format";
import { auditListQuery, auditOperatorsQuery } from "../audit.api";

const FILTERS = { operator_uid: "int", action: "text" } as const;

const ACTION_OPTIONS = AUDIT_ACTIONS.map((a) => ({ value: a, label: auditActionLabel(a) })).sort((x, y) =>
  x.label.localeCompare(y.label, "zh-CN"),
);

/** "管理员 138****0000", the name alone, the phone alone, or 命令行 / UID for someone gone. */
const operatorText = (o: { uid: number; name: string; phone: string }) =>
  [o.name, o.phone].filter(Boolean).join(" ") || (o.uid === 0 ? "命令行" : `UID ${o.uid}`);

/** One "字段：旧值 → 新值" line (only the new value where the old one was not recorded). */
function ChangeLine({ c }: { c: AuditChange }) {
  return (
    <div className="audit-change">
      <Typography.Text type="secondary">{c.label}：</Typography.Text>
      {c.from !== undefined && (
        <>
          <Typography.Text delete type="secondary">
            {c.from}
          </Typography.Text>
          {" → "}
        </>
      )}
      <Typography.Text>{c.to}</Typography.Text>
    </div>
  );
}

const Changes = ({ row }: { row: AuditRow }) =>
  row.changes.length ? (
    <div>
      {row.changes.map((c) => (
        <ChangeLine key={c.field} c={c} />
      ))}
    </div>
  ) : (
    <Typography.Text type="secondary">-</Typography.Text>
  );

const columns: TableColumnsType<AuditRow> = [
  timeColumn("时间", "created_at", { width: 160 }),
  {
    title: "操作人",
    key: "operator",
    width: 150,
    render: (_: unknown, r) => operatorText({ uid: r.operator_uid, name: r.operator_name, phone: r.operator_phone }),
  },
  {
    title: "操作",
    dataIndex: "action_label",
    width: 140,
    render: (v: string, r) => <Tag title={r.action}>{v}</Tag>,
  },
  { title: "对象", dataIndex: "target_label", width: 120, render: (v: string, r) => <span title={r.target}>{v}</span> },
  { title: "变更", key: "changes", render: (_: unknown, r) => <Changes row={r} /> },
  { title: "IP", dataIndex: "ip", width: 130, responsive: ["xxl"] },
];

/** A phone's row: action and time on top, who and what below, then the changes. */
const narrowColumns: TableColumnsType<AuditRow> = [
  {
    title: "记录",
    key: "row",
    render: (_: unknown, r) => (
      <div>
        <div style={{ display: "flex", justifyContent: "space-between", gap: 8 }}>
          <Tag title={r.action}>{r.action_label}</Tag>
          <Typography.Text type="secondary">{formatTime(r.created_at)}</Typography.Text>
        </div>
        <div style={{ margin: "4px 0" }}>
          {operatorText({ uid: r.operator_uid, name: r.operator_name, phone: r.operator_phone })}
          <Typography.Text type="secondary"> · {r.target_label}</Typography.Text>
        </div>
        <Changes row={r} />
      </div>
    ),
  },
];

/** /admin/audit: the log of every admin write, readable, filtered by action and operator. */
export function AuditPage() {
  const [form] = Form.useForm();
  const { filters, search, reset, pagination } = useUrlFilters(FILTERS, form, 20);
  const query = { ...filters, action: filters.action as AuditAction | undefined };
  const { data, isFetching } = useQuery(auditListQuery(query));
  const operators = useQuery(auditOperatorsQuery());
  const screens = Grid.useBreakpoint();
  const narrow = !screens.md;

  return (
    <PageContainer title="审计日志">
      <SearchCard form={form} onFinish={search} onReset={reset}>
        <Form.Item name="action" label="操作">
          <Select
            allowClear
            showSearch
            optionFilterProp="label"
            placeholder="全部"
            style={{ width: 180 }}
            options={ACTION_OPTIONS}
          />
        </Form.Item>
        <SelectFilter
          name="operator_uid"
          label="操作人"
          width={200}
          options={operators.data?.map((o: AuditOperator) => ({ value: o.uid, label: operatorText(o) }))}
        />
      </SearchCard>
      <Card>
        <Table<AuditRow>
          rowKey="id"
          columns={narrow ? narrowColumns : columns}
          showHeader={!narrow}
          dataSource={data?.list}
          loading={isFetching}
          pagination={pagination(data?.total)}
        />
      </Card>
    </PageContainer>
  );
}
