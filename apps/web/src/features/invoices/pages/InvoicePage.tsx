import { type InvoiceRow, InvoiceStatus, InvoiceStatusLabel } from "@burrow/contract";
import { RiDownloadLine } from "@remixicon/react";
import { useQuery } from "@tanstack/react-query";
import { Alert, Badge, Button, Card, Space, Typography } from "antd";
import { useEffect, useState } from "react";
import { statusColumn, timeColumn } from "@/components/ListColumns";
import { PageContainer } from "@/components/PageContainer";
import { type ResponsiveColumns, ResponsiveTable } from "@/components/ResponsiveTable";
import { StatusFilter, useStatusPaging } from "@/components/StatusFilter";
import { AddButton } from "@/components/table/AddButton";
import { InvoiceDetails, InvoiceStatusTag, yuan } from "../components/InvoiceParts";
import { RequestInvoiceModal } from "../components/RequestInvoiceModal";
import { downloadInvoicePdf, myInvoicesQuery } from "../invoices.api";

const columns: ResponsiveColumns<InvoiceRow> = [
  {
    title: "编号",
    priority: 4,
    dataIndex: "invoice_id",
    width: 90,
    render: (id: number, r) => (
      <Space>
        {id}
        {r.unread ? <Badge status="processing" text="新" /> : null}
      </Space>
    ),
  },
  statusColumn("status", 200, (s: number, r) => (
    <Space direction="vertical" size={0}>
      <InvoiceStatusTag status={s} />
      {r.reason ? <Typography.Text type="secondary">原因：{r.reason}</Typography.Text> : null}
    </Space>
  )),
  { title: "发票抬头", role: "title", dataIndex: "title", width: 240, ellipsis: true },
  { title: "金额", priority: 2, dataIndex: "amount", width: 120, align: "right", render: (v: number) => yuan(v) },
  { title: "订单数", priority: 3, key: "orders", width: 80, render: (_: unknown, r) => r.orders.length },
  timeColumn("申请时间", "created_at", { priority: 3, width: 170 }),
  {
    title: "操作",
    key: "actions",
    width: 120,
    render: (_: unknown, r) =>
      r.has_file ? (
        <Button
          type="link"
          size="small"
          icon={<RiDownloadLine size={14} />}
          onClick={() => void downloadInvoicePdf(r.invoice_id)}
        >
          下载发票
        </Button>
      ) : r.status === InvoiceStatus.Issued && r.invoice_no ? (
        `号码 ${r.invoice_no}`
      ) : null,
  },
];

/** /invoice: my invoice requests, their status and the issued PDFs; a new request. */
export function InvoicePage() {
  const [creating, setCreating] = useState(false);
  const { page, size, status, setStatus, pagination } = useStatusPaging();
  const { data, isFetching } = useQuery(myInvoicesQuery(page, size, status));
  // The server clears the marks when it answers; keep what this visit was told (refetches come back unmarked).
  const [changed, setChanged] = useState<Map<number, InvoiceRow>>(new Map());
  useEffect(() => {
    const fresh = data?.list.filter((r) => r.unread) ?? [];
    if (fresh.length) setChanged((m) => new Map([...m, ...fresh.map((r) => [r.invoice_id, r] as const)]));
  }, [data]);
  return (
    <PageContainer
      title="发票"
      description="为在线支付的订单申请电子发票，开具后可在此下载，并发送到你填写的邮箱。"
      extra={<AddButton onClick={() => setCreating(true)}>申请发票</AddButton>}
    >
      {changed.size ? (
        <Alert
          type="success"
          showIcon
          style={{ marginBottom: 16 }}
          message={[...changed.values()].map((r) => `发票 #${r.invoice_id} ${InvoiceStatusLabel[r.status]}`).join("；")}
        />
      ) : null}
      <Card>
        <StatusFilter labels={InvoiceStatusLabel} value={status} onChange={setStatus} />
        <ResponsiveTable<InvoiceRow>
          rowKey="invoice_id"
          size="middle"
          columns={columns}
          dataSource={data?.list.map((r) => (changed.has(r.invoice_id) ? { ...r, unread: true } : r))}
          loading={isFetching}
          expandable={{ expandedRowRender: (r) => <InvoiceDetails row={r} /> }}
          pagination={pagination(data?.total)}
        />
      </Card>
      <RequestInvoiceModal open={creating} onClose={() => setCreating(false)} />
    </PageContainer>
  );
}
