import { Form, Input } from "antd";
import { confirmRules, passwordRules } from "@/lib/rules";

/**
 * A new password and its confirmation (`password`, `confirm`): the server's password rules, and
 * the second must equal the first. The form sends `password` only.
 */
export function NewPasswordFields({
  label = "新密码",
  placeholder,
  confirmPlaceholder,
}: {
  label?: string;
  placeholder?: string;
  confirmPlaceholder?: string;
}) {
  return (
    <>
      <Form.Item name="password" label={label} rules={passwordRules(label)}>
        <Input.Password autoComplete="new-password" placeholder={placeholder} />
      </Form.Item>
      <Form.Item
        name="confirm"
        label={`确认${label}`}
        dependencies={["password"]}
        rules={confirmRules("password", label)}
      >
        <Input.Password autoComplete="new-password" placeholder={confirmPlaceholder} />
      </Form.Item>
    </>
  );
}
