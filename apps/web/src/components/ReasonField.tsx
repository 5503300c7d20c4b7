import { Form, Input } from "antd";
import { fieldRules } from "@/lib/rules";

/** The reason an operator gives for an action the customer will see (1–200 characters, required). */
export function ReasonField({ name, label }: { name: string; label: string }) {
  return (
    <Form.Item name={name} label={label} rules={fieldRules(label, { required: true, length: { min: 1, max: 200 } })}>
      <Input.TextArea rows={3} maxLength={200} showCount />
    </Form.Item>
  );
}
