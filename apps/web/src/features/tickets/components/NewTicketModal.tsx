import { TicketCategories, type TicketCategory, TicketCategoryLabel } from "@burrow/contract";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { Form, Input, InputNumber, Modal, Select, type UploadFile } from "antd";
import { useEffect } from "react";
import { feedback } from "@/lib/feedback";
import { showFormError } from "@/lib/form-error";
import { fieldRules } from "@/lib/rules";
import { createTicket, ticketsKeys } from "../tickets.api";
import { AttachmentField, attachmentIds } from "./AttachmentField";

interface NewTicketForm {
  title: string;
  category: TicketCategory;
  content: string;
  tun_id?: number | null;
  attachments?: UploadFile[];
}

export interface NewTicketModalProps {
  open: boolean;
  /** an appeal for this locked tunnel (from the tunnel page) */
  appealTunId?: number;
  onClose: () => void;
  onCreated: (ticketId: number) => void;
}

/** The new-ticket form: title, category, content, up to three images; an appeal names the tunnel. */
export function NewTicketModal({ open, appealTunId, onClose, onCreated }: NewTicketModalProps) {
  const [form] = Form.useForm<NewTicketForm>();
  const queryClient = useQueryClient();
  const category = Form.useWatch("category", form);

  useEffect(() => {
    if (!open) return;
    form.resetFields();
    if (appealTunId)
      form.setFieldsValue({ category: "appeal", tun_id: appealTunId, title: `隧道 #${appealTunId} 封禁申诉` });
  }, [open, appealTunId, form]);

  const mutation = useMutation({
    mutationFn: (v: NewTicketForm) =>
      createTicket({
        title: v.title.trim(),
        category: v.category,
        content: v.content.trim(),
        attachments: attachmentIds(v.attachments),
        ...(v.category === "appeal" && v.tun_id ? { tun_id: v.tun_id } : {}),
      }),
    meta: { silentError: true },
    onSuccess: async (t) => {
      feedback.success("工单已提交");
      await queryClient.invalidateQueries({ queryKey: ticketsKeys.all });
      onCreated(t.ticket_id);
    },
    onError: (e) => showFormError(form, e),
  });

  const uploading = (Form.useWatch("attachments", form) ?? []).some((f: UploadFile) => f.status === "uploading");
  return (
    <Modal
      title="新建工单"
      open={open}
      width={640}
      okText="提交"
      cancelText="取消"
      onCancel={onClose}
      onOk={() => form.submit()}
      okButtonProps={{ loading: mutation.isPending, disabled: uploading }}
      destroyOnHidden
    >
      <Form form={form} layout="vertical" initialValues={{ category: "tunnel" }} onFinish={(v) => mutation.mutate(v)}>
        <Form.Item name="title" label="标题" rules={fieldRules("标题", { required: true, length: { max: 100 } })}>
          <Input maxLength={100} placeholder="一句话描述问题" />
        </Form.Item>
        <Form.Item name="category" label="分类" rules={fieldRules("分类", { required: true, choice: true })}>
          <Select options={TicketCategories.map((c) => ({ value: c, label: TicketCategoryLabel[c] }))} />
        </Form.Item>
        {category === "appeal" ? (
          <Form.Item
            name="tun_id"
            label="被锁定的隧道 ID"
            rules={fieldRules("隧道 ID", { required: true, integer: true, range: { min: 1 } })}
          >
            <InputNumber min={1} precision={0} style={{ width: "100%" }} />
          </Form.Item>
        ) : null}
        <Form.Item name="content" label="内容" rules={fieldRules("内容", { required: true, length: { max: 5000 } })}>
          <Input.TextArea rows={6} maxLength={5000} showCount placeholder="请详细描述问题，附上 frpc 报错或截图" />
        </Form.Item>
        <Form.Item name="attachments" label="图片" valuePropName="value">
          <AttachmentField />
        </Form.Item>
      </Form>
    </Modal>
  );
}
