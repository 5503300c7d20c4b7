import {
  type CreateInvoiceBody,
  type InvoiceableOrder,
  InvoiceTitleTypeLabel,
  InvoiceTitleTypes,
  OrderTypeLabel,
  usccProblem,
} from "@burrow/contract";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { Alert, Form, Input, Radio, Table, type TableColumnsType, Typography } from "antd";
import { FormModal } from "@/components/FormModal";
import { formatTime } from "@/lib/format";
import { invoiceableOrdersQuery, invoicesKeys, requestInvoice } from "../invoices.api";
import { yuan } from "./InvoiceParts";

const columns: TableColumnsType<InvoiceableOrder> = [
  { title: "订单号", dataIndex: "trade_id", width: 200 },
  { title: "类型", dataIndex: "type", width: 90, render: (t: number) => OrderTypeLabel[t] },
  { title: "商品", dataIndex: "name", ellipsis: true },
  { title: "支付时间", dataIndex: "paid_at", width: 170, render: (v: string) => formatTime(v) },
  {
    title: "可开票金额",
    dataIndex: "invoiceable",
    width: 150,
    align: "right",
    render: (v: number, o) => (
      <span>
        {yuan(v)}
        {o.refunded > 0 ? <Typography.Text type="secondary">（已退 {yuan(o.refunded)}）</Typography.Text> : null}
      </span>
    ),
  },
];

/** The orders to invoice: a selectable table as a form field holding trade ids. */
function OrderPicker({
  orders,
  value,
  onChange,
}: {
  orders: InvoiceableOrder[];
  value?: string[];
  onChange?: (v: string[]) => void;
}) {
  const total = orders.filter((o) => value?.includes(o.trade_id)).reduce((s, o) => s + o.invoiceable, 0);
  return (
    <>
      <Table<InvoiceableOrder>
        rowKey="trade_id"
        size="small"
        columns={columns}
        dataSource={orders}
        pagination={false}
        scroll={{ x: 760, y: 260 }}
        rowSelection={{ selectedRowKeys: value ?? [], onChange: (keys) => onChange?.(keys as string[]) }}
      />
      <div style={{ marginTop: 8 }}>
        已选 {value?.length ?? 0} 笔，开票金额 <Typography.Text strong>{yuan(total)}</Typography.Text>
      </div>
    </>
  );
}

type Values = CreateInvoiceBody;

/** Asks for an invoice over some invoiceable orders (paid online, not yet invoiced). */
export function RequestInvoiceModal({ open, onClose }: { open: boolean; onClose: () => void }) {
  const queryClient = useQueryClient();
  const { data: orders = [] } = useQuery({ ...invoiceableOrdersQuery(), enabled: open });
  return (
    <FormModal<Values>
      open={open}
      title="申请发票"
      okText="提交申请"
      width={860}
      initialValues={{ title_type: "company", trade_ids: [] }}
      successText="发票申请已提交"
      onClose={onClose}
      onSubmit={async (v) => {
        await requestInvoice(v);
        await queryClient.invalidateQueries({ queryKey: invoicesKeys.all });
      }}
    >
      {(form) => (
        <>
          <Alert
            type="info"
            showIcon
            style={{ marginBottom: 16 }}
            message="可开票的是在线支付的订单（含余额充值），金额为实付减去已退款；使用余额支付的订单已随充值开票，不再重复开具。"
          />
          <Form.Item
            name="trade_ids"
            label="选择订单"
            rules={[{ type: "array", min: 1, required: true, message: "请至少选择一笔订单" }]}
          >
            <OrderPicker orders={orders} />
          </Form.Item>
          <Form.Item name="title_type" label="抬头类型" rules={[{ required: true, message: "请选择抬头类型" }]}>
            <Radio.Group
              optionType="button"
              options={InvoiceTitleTypes.map((v) => ({ value: v, label: InvoiceTitleTypeLabel[v] }))}
              onChange={() => form.setFields([{ name: "tax_no", errors: [] }])}
            />
          </Form.Item>
          <Form.Item
            name="title"
            label="发票抬头"
            rules={[
              { required: true, whitespace: true, message: "请输入发票抬头" },
              { min: 2, max: 100, message: "发票抬头为 2–100 个字" },
            ]}
          >
            <Input placeholder="个人姓名或单位全称" maxLength={100} />
          </Form.Item>
          <Form.Item noStyle dependencies={["title_type"]}>
            {() =>
              form.getFieldValue("title_type") === "company" ? (
                <Form.Item
                  name="tax_no"
                  label="纳税人识别号"
                  rules={[
                    { required: true, whitespace: true, message: "请输入纳税人识别号" },
                    {
                      validator: async (_, v: string | undefined) => {
                        const problem = v ? usccProblem(v) : null;
                        if (problem) throw new Error(problem);
                      },
                    },
                  ]}
                >
                  <Input placeholder="18 位统一社会信用代码" maxLength={18} autoComplete="off" />
                </Form.Item>
              ) : null
            }
          </Form.Item>
          <Form.Item
            name="email"
            label="接收邮箱"
            rules={[
              { required: true, message: "请输入接收邮箱" },
              { type: "email", message: "邮箱格式不正确" },
            ]}
          >
            <Input placeholder="电子发票将发送到此邮箱" maxLength={100} />
          </Form.Item>
        </>
      )}
    </FormModal>
  );
}
