import { useMutation } from "@tanstack/react-query";
import { Form, type FormInstance, Modal } from "antd";
import { type ReactNode, useEffect, useId } from "react";
import { feedback } from "@/lib/feedback";
import { showFormError } from "@/lib/form-error";

export interface FormModalProps<T> {
  open: boolean;
  title: string;
  /** values the form opens with (the row being edited) */
  initialValues?: Partial<T>;
  /** sends the values; a server error naming a field is shown on it */
  onSubmit: (values: T) => Promise<unknown>;
  onClose: () => void;
  /** the toast after success */
  successText?: string;
  /** server field name → form field name, where they differ */
  fieldMap?: Record<string, string>;
  okText?: string;
  width?: number;
  /** the fields; a function gets the form (for fields that depend on each other) */
  children: ReactNode | ((form: FormInstance<T>) => ReactNode);
}

/**
 * A modal with one vertical form: validates, submits, shows server errors on their fields
 * (lib/form-error.ts) and closes on success.
 */
export function FormModal<T extends object>({
  open,
  title,
  initialValues,
  onSubmit,
  onClose,
  successText,
  fieldMap,
  okText = "保存",
  width,
  children,
}: FormModalProps<T>) {
  const [form] = Form.useForm<T>();
  // A form name of its own prefixes the field ids: a search form on the page may use the same names.
  const formName = `modal${useId().replace(/[^A-Za-z0-9]/g, "")}`;
  const mutation = useMutation({ mutationFn: onSubmit, meta: { silentError: true } });

  // biome-ignore lint/correctness/useExhaustiveDependencies: reset only when the modal opens
  useEffect(() => {
    if (!open) return;
    form.resetFields();
    if (initialValues) form.setFieldsValue(initialValues as Parameters<typeof form.setFieldsValue>[0]);
  }, [open, form]);

  const submit = async () => {
    let values: T;
    try {
      values = await form.validateFields();
    } catch {
      return; // the fields show what is wrong
    }
    try {
      await mutation.mutateAsync(values);
      if (successText) feedback.success(successText);
      onClose();
    } catch (error) {
      showFormError(form, error, fieldMap);
    }
  };

  return (
    <Modal
      open={open}
      title={title}
      okText={okText}
      cancelText="取消"
      onOk={submit}
      onCancel={onClose}
      confirmLoading={mutation.isPending}
      width={width}
      forceRender
    >
      <Form<T> form={form} name={formName} layout="vertical" onFinish={submit}>
        {typeof children === "function" ? children(form) : children}
      </Form>
    </Modal>
  );
}
