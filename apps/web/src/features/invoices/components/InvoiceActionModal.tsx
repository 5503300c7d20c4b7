import {
  AdminInvoiceActionBody,
  type AdminInvoiceRow,
  INVOICE_FILE_MAX_BYTES,
  type InvoiceAction,
} from "@burrow/contract";
import { RiFileUploadLine } from "@remixicon/react";
import { useQueryClient } from "@tanstack/react-query";
import { Alert, Button, Form, Input, Upload, type UploadProps } from "antd";
import { useState } from "react";
import { FormModal } from "@/components/FormModal";
import { feedback } from "@/lib/feedback";
import { schemaRule } from "@/lib/rules";
import { actOnInvoice, invoicesKeys, uploadInvoicePdf } from "../invoices.api";
import { yuan } from "./InvoiceParts";

const TITLES: Record<InvoiceAction, string> = { issue: "开具发票", return: "退回申请", cancel: "取消发票" };
const OK: Record<InvoiceAction, string> = { issue: "开具", return: "退回", cancel: "取消发票" };
const DONE: Record<InvoiceAction, string> = { issue: "发票已开具", return: "申请已退回", cancel: "发票已取消" };

/** The PDF of an awaiting invoice, uploaded as soon as it is chosen (the server checks its bytes). */
function PdfUpload({ row, onUploaded }: { row: AdminInvoiceRow; onUploaded: (size: number) => void }) {
  const [busy, setBusy] = useState(false);
  const customRequest: UploadProps["customRequest"] = async ({ file, onSuccess, onError, onProgress }) => {
    setBusy(true);
    try {
      const r = await uploadInvoicePdf(row.invoice_id, file as Blob, (percent) => onProgress?.({ percent }));
      onUploaded(r.file_size ?? 0);
      onSuccess?.(r);
    } catch (e) {
      const message = (e as Error).message.replace(/^file: /, "");
      feedback.error(`上传失败：${message}`);
      onError?.(new Error(message));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Upload
      accept="application/pdf,.pdf"
      maxCount={1}
      customRequest={customRequest}
      beforeUpload={(file) => {
        if (file.size > INVOICE_FILE_MAX_BYTES) {
          feedback.error(`文件不能超过 ${INVOICE_FILE_MAX_BYTES / 1024 / 1024} MB`);
          return Upload.LIST_IGNORE;
        }
        return true;
      }}
    >
      <Button icon={<RiFileUploadLine size={16} />} loading={busy}>
        上传发票 PDF
      </Button>
    </Upload>
  );
}

/** Issue (number and/or PDF), return with a reason, or cancel one invoice: PATCH /super/invoice. */
export function InvoiceActionModal({
  row,
  action,
  onClose,
}: {
  row: AdminInvoiceRow | null;
  action: InvoiceAction;
  onClose: () => void;
}) {
  const queryClient = useQueryClient();
  const [uploaded, setUploaded] = useState<number | null>(null);
  const close = () => {
    setUploaded(null);
    onClose();
  };
  const hasFile = uploaded !== null || (row?.file_size ?? null) !== null;
  return (
    <FormModal<{ invoice_no?: string; reason?: string }>
      open={row !== null}
      title={row ? `${TITLES[action]} #${row.invoice_id}` : TITLES[action]}
      okText={OK[action]}
      successText={DONE[action]}
      onClose={close}
      onSubmit={async (v) => {
        if (!row) return;
        try {
          await actOnInvoice({ invoice_id: row.invoice_id, action, ...v });
        } finally {
          await queryClient.invalidateQueries({ queryKey: invoicesKeys.admin() });
        }
      }}
    >
      {row ? (
        <>
          <Alert
            type={row.flagged ? "warning" : "info"}
            showIcon
            style={{ marginBottom: 16 }}
            message={`${row.title}（${row.tax_no ?? "个人"}）· ${yuan(row.amount)} · ${row.orders.length} 笔订单`}
            description={row.flagged ? `退款提醒：${row.flag_note}` : undefined}
          />
          {action === "issue" ? (
            <>
              <Form.Item label="发票文件" extra={hasFile ? "已上传 PDF，重新上传会替换" : "PDF，最大 10 MB"}>
                <PdfUpload row={row} onUploaded={setUploaded} />
              </Form.Item>
              <Form.Item
                name="invoice_no"
                label="发票号码"
                extra="上传 PDF 或填写发票号码，至少一项"
                rules={[schemaRule(AdminInvoiceActionBody.shape.invoice_no)]}
              >
                <Input maxLength={40} autoComplete="off" />
              </Form.Item>
            </>
          ) : (
            <Form.Item
              name="reason"
              label={action === "return" ? "退回原因" : "取消原因"}
              rules={[
                { required: action === "return", whitespace: true, message: "请填写退回原因" },
                { max: 500, message: "原因最多 500 字" },
              ]}
              extra={action === "return" ? "用户会看到此原因，订单可重新申请开票" : "已开具的发票取消前请先完成红冲"}
            >
              <Input.TextArea rows={3} maxLength={500} />
            </Form.Item>
          )}
        </>
      ) : null}
    </FormModal>
  );
}
