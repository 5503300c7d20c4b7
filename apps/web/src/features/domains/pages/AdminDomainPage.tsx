import { type AdminDomainRow, DOMAIN_STATE_LABELS, type DomainState, DomainStates } from "@burrow/contract";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { Button, Form, Space, Typography } from "antd";
import { useState } from "react";
import { FormModal } from "@/components/FormModal";
import { statusColumn, timeColumn } from "@/components/ListColumns";
import { ListTableCard } from "@/components/ListTableCard";
import { PageContainer } from "@/components/PageContainer";
import { ReasonField } from "@/components/ReasonField";
import type { ResponsiveColumns } from "@/components/ResponsiveTable";
import { SearchCard } from "@/components/SearchCard";
import { IdFilter, SelectFilter, TextFilter } from "@/components/SearchFields";
import { useAccess } from "@/hooks/useAccess";
import { useUrlFilters } from "@/hooks/useUrlFilters";
import { phoneText } from "@/lib/format";
import { DomainStateTag } from "../components/DomainStateTag";
import { adminDomainsQuery, domainsKeys, unbindDomain } from "../domains.api";

const FILTERS = { domain: "text", uid: "int", state: "text" } as const;

/** /admin/tun/domain: every customer domain; a Manager may force-unbind one with a reason. */
export function AdminDomainPage() {
  const queryClient = useQueryClient();
  const { canWrite } = useAccess();
  const [form] = Form.useForm();
  const { filters, search, reset, pagination } = useUrlFilters(FILTERS, form);
  const { data, isFetching } = useQuery(
    adminDomainsQuery({ ...filters, state: filters.state as DomainState | undefined }),
  );
  const [unbinding, setUnbinding] = useState<AdminDomainRow | null>(null);

  const columns: ResponsiveColumns<AdminDomainRow> = [
    { title: "ID", priority: 6, dataIndex: "id", width: 70 },
    {
      title: "域名",
      role: "title",
      dataIndex: "domain",
      width: 220,
      render: (d: string) => <Typography.Text strong>{d}</Typography.Text>,
    },
    {
      title: "用户",
      priority: 3,
      key: "user",
      width: 170,
      render: (_: unknown, row) => (
        <Space orientation="vertical" size={0}>
          <span>{row.nickname || phoneText(row.phone)}</span>
          <Typography.Text type="secondary">
            {phoneText(row.phone)} (UID {row.uid})
          </Typography.Text>
        </Space>
      ),
    },
    { title: "节点", priority: 4, dataIndex: "node_name", width: 140 },
    statusColumn("state", 100, (s: DomainState) => <DomainStateTag state={s} />),
    { title: "备案号", priority: 4, dataIndex: "icp_no", width: 170, render: (v: string | null) => v ?? "—" },
    {
      title: "使用的隧道",
      priority: 3,
      dataIndex: "tunnels",
      width: 180,
      render: (ts: AdminDomainRow["tunnels"]) =>
        ts.length ? (
          ts.map((t) => `${t.tun_name} #${t.tun_id}`).join("、")
        ) : (
          <Typography.Text type="secondary">无</Typography.Text>
        ),
    },
    {
      title: "检查结果 / 解绑原因",
      priority: 2,
      key: "problem",
      width: 280,
      render: (_: unknown, row) =>
        row.state === "unbound" ? (
          <Typography.Text type="danger">{row.unbind_reason}</Typography.Text>
        ) : (
          (row.problem ?? <Typography.Text type="success">记录正确</Typography.Text>)
        ),
    },
    timeColumn("最近检查", "checked_at", { priority: 3, width: 170 }),
    timeColumn("验证时间", "verified_at", { priority: 5, width: 170 }),
    timeColumn("添加时间", "created_at", { priority: 5, width: 170 }),
  ];
  if (canWrite) {
    columns.push({
      title: "操作",
      key: "actions",
      width: 100,
      render: (_: unknown, row) =>
        row.state === "unbound" ? (
          <Typography.Text type="secondary">已解绑</Typography.Text>
        ) : (
          <Button type="link" size="small" danger onClick={() => setUnbinding(row)}>
            强制解绑
          </Button>
        ),
    });
  }

  return (
    <PageContainer title="域名管理" description="所有用户添加的自定义域名、验证状态和使用它们的隧道">
      <div className="tab-stack">
        <SearchCard form={form} onFinish={search} onReset={reset}>
          <TextFilter name="domain" label="域名" max={253} placeholder="支持部分域名" />
          <IdFilter name="uid" label="UID" width={110} />
          <SelectFilter
            name="state"
            label="状态"
            width={120}
            options={DomainStates.map((s) => ({ value: s, label: DOMAIN_STATE_LABELS[s] }))}
          />
        </SearchCard>
        <ListTableCard columns={columns} data={data} loading={isFetching} pagination={pagination} />
      </div>
      <FormModal<{ reason: string }>
        open={unbinding !== null}
        title="强制解绑域名"
        okText="解绑"
        successText="域名已解绑"
        onSubmit={async (v) => {
          if (!unbinding) return;
          await unbindDomain({ id: unbinding.id, reason: v.reason.trim() });
          await queryClient.invalidateQueries({ queryKey: domainsKeys.all });
        }}
        onClose={() => setUnbinding(null)}
      >
        <Typography.Paragraph type="secondary">
          解绑「{unbinding?.domain}」（用户 UID {unbinding?.uid}）后，该用户不能再使用或重新验证此域名，使用它的隧道
          {unbinding?.tunnels.length ? `（${unbinding.tunnels.map((t) => t.tun_name).join("、")}）` : ""}
          下次上线时会被拒绝。用户会看到以下原因，操作将记入审计日志。
        </Typography.Paragraph>
        <ReasonField name="reason" label="解绑原因" />
      </FormModal>
    </PageContainer>
  );
}
