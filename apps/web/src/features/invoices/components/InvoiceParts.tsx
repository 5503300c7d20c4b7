import {
  fenToYuan,
  type InvoiceRow,
  InvoiceStatusLabel,
  InvoiceTitleTypeLabel,
  OrderTypeLabel,
} from "@burrow/contract";
import { Descriptions, List, Tag, Typography } from "antd";

const COLORS: Record<number, string> = { [-1]: "default", 1: "success", 2: "processing", 3: "warning" };

/** SPEC §4 invoice status as a tag. */
export function InvoiceStatusTag({ status }: { status: number }) {
  return <Tag color={COLORS[status] ?? "default"}>{InvoiceStatusLabel[status] ?? status}</Tag>;
}

export const yuan = (fen: number) => `¥${fenToYuan(fen)}`;

/** The title, tax number, email and orders of an invoice (a table row's expanded part). */
export function InvoiceDetails({ row }: { row: InvoiceRow }) {
  return (
    <Descriptions size="small" column={{ xs: 1, md: 2 }} bordered>
      <Descriptions.Item label="抬头类型">{InvoiceTitleTypeLabel[row.title_type]}</Descriptions.Item>
      <Descriptions.Item label="发票抬头">{row.title}</Descriptions.Item>
      {row.tax_no ? <Descriptions.Item label="纳税人识别号">{row.tax_no}</Descriptions.Item> : null}
      <Descriptions.Item label="接收邮箱">{row.email}</Descriptions.Item>
      {row.invoice_no ? <Descriptions.Item label="发票号码">{row.invoice_no}</Descriptions.Item> : null}
      {row.reason ? <Descriptions.Item label="原因">{row.reason}</Descriptions.Item> : null}
      <Descriptions.Item label="订单" span={2}>
        <List
          size="small"
          dataSource={row.orders}
          renderItem={(o) => (
            <List.Item extra={yuan(o.amount)}>
              <Typography.Text copyable={{ text: o.trade_id }}>{o.trade_id}</Typography.Text>
              <Typography.Text type="secondary">
                {" "}
                {OrderTypeLabel[o.type]} · {o.name}
              </Typography.Text>
            </List.Item>
          )}
        />
      </Descriptions.Item>
    </Descriptions>
  );
}
