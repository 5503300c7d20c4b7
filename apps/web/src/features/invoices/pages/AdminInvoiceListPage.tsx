import { type AdminInvoiceRow, type InvoiceAction, InvoiceStatus, InvoiceStatusLabel } from "@burrow/contract";
import { RiDownloadLine, RiErrorWarningLine } from "@remixicon/react";
import { useQuery } from "@tanstack/react-query";
import { Button, Card, Col, Form, Space, Tooltip, Typography } from "antd";
import { useState } from "react";
import { statusColumn, timeColumn } from "@/components/ListColumns";
import { PageContainer } from "@/components/PageContainer";
import type { ResponsiveColumns } from "@/components/ResponsiveTable";
import { GridSearchCard } from "@/components/SearchCard";
import { CustomerFilterCols, IdFilter, SEARCH_COL, SelectFilter, TextFilter } from "@/components/SearchFields";
import { PagedTable } from "@/components/table/PagedTable";
import { useUrlFilters } from "@/hooks/useUrlFilters";
import { phoneText } from "@/lib/format";
import { labelOptions } from "@/lib/options";
import { InvoiceActionModal } from "../components/InvoiceActionModal";
import { InvoiceDetails, InvoiceStatusTag, yuan } from "../components/InvoiceParts";
import { adminInvoicesQuery, downloadInvoicePdf } from "../invoices.api";

const FILTERS = {
  status: "int",
  invoice_id: "int",
  uid: "int",
  phone: "text",
  trade_id: "text",
  flagged: "int",
} as const;

/** /admin/invoice/list: the invoice queue (awaiting first, oldest first), filters kept in the URL. */
export function AdminInvoiceListPage() {
  const [form] = Form.useForm();
  const { filters, search, reset, pagination } = useUrlFilters(FILTERS, form);
  const invoices = useQuery(adminInvoicesQuery(filters));
  const [acting, setActing] = useState<{ row: AdminInvoiceRow; action: InvoiceAction } | null>(null);
  const open = (row: AdminInvoiceRow, action: InvoiceAction) => setActing({ row, action });

  const columns: ResponsiveColumns<AdminInvoiceRow> = [
    { title: "编号", priority: 5, dataIndex: "invoice_id", width: 80 },
    statusColumn("status", 130, (s: number, r) => (
      <Space size={4}>
        <InvoiceStatusTag status={s} />
        {r.flagged ? (
          <Tooltip title={`退款提醒：${r.flag_note}`}>
            <Typography.Text type="danger">
              <RiErrorWarningLine size={16} aria-label="退款提醒" />
            </Typography.Text>
          </Tooltip>
        ) : null}
      </Space>
    )),
    {
      title: "用户",
      priority: 2,
      dataIndex: "phone",
      width: 170,
      render: (phone: string, r) => `${phoneText(phone)}（${r.uid}）`,
    },
    {
      title: "发票抬头",
      role: "title",
      dataIndex: "title",
      ellipsis: true,
      render: (title: string, r) => (
        <Space direction="vertical" size={0}>
          <span>{title}</span>
          <Typography.Text type="secondary">{r.tax_no ?? "个人"}</Typography.Text>
        </Space>
      ),
    },
    { title: "金额", priority: 2, dataIndex: "amount", width: 110, align: "right", render: (v: number) => yuan(v) },
    timeColumn("申请时间", "created_at", { priority: 3, width: 170 }),
    timeColumn("处理时间", "handled_at", { priority: 4, width: 170 }),
    {
      title: "操作",
      key: "actions",
      width: 230,
      render: (_: unknown, r) => (
        <Space size={0} wrap>
          {r.status === InvoiceStatus.Awaiting ? (
            <>
              <Button type="link" size="small" onClick={() => open(r, "issue")}>
                开具
              </Button>
              <Button type="link" size="small" onClick={() => open(r, "return")}>
                退回
              </Button>
            </>
          ) : null}
          {r.status === InvoiceStatus.Awaiting || r.status === InvoiceStatus.Issued ? (
            <Button type="link" size="small" danger onClick={() => open(r, "cancel")}>
              取消
            </Button>
          ) : null}
          {r.file_size !== null ? (
            <Button
              type="link"
              size="small"
              icon={<RiDownloadLine size={14} />}
              onClick={() => void downloadInvoicePdf(r.invoice_id, true)}
            >
              PDF
            </Button>
          ) : null}
        </Space>
      ),
    },
  ];

  return (
    <PageContainer title="发票管理">
      <GridSearchCard form={form} initialValues={filters} onFinish={search} onReset={reset} actionsRow>
        <Col {...SEARCH_COL}>
          <SelectFilter name="status" label="状态" options={labelOptions(InvoiceStatusLabel)} />
        </Col>
        <Col {...SEARCH_COL}>
          <SelectFilter name="flagged" label="退款提醒" options={[{ value: 1, label: "仅看有退款的" }]} />
        </Col>
        <Col {...SEARCH_COL}>
          <IdFilter name="invoice_id" label="发票编号" width="100%" />
        </Col>
        <CustomerFilterCols />
        <Col {...SEARCH_COL}>
          <TextFilter name="trade_id" label="订单号" max={40} />
        </Col>
      </GridSearchCard>
      <Card>
        <PagedTable<AdminInvoiceRow>
          rowKey="invoice_id"
          size="middle"
          columns={columns}
          query={invoices}
          expandable={{ expandedRowRender: (r) => <InvoiceDetails row={r} /> }}
          pagination={pagination}
        />
      </Card>
      <InvoiceActionModal
        row={acting?.row ?? null}
        action={acting?.action ?? "issue"}
        onClose={() => setActing(null)}
      />
    </PageContainer>
  );
}
