import { DatePicker, Form } from "antd";
import { fieldRules } from "@/lib/rules";
import { beforeToday } from "../forms";

/** 过期日期 of a promo code or a gift card: a day from today on (the server reads it as that day's end). */
export function ExpireDateItem({ extra }: { extra: string }) {
  return (
    <Form.Item
      name="expire_date"
      label="过期日期"
      extra={extra}
      rules={fieldRules("过期日期", { required: true, choice: true })}
    >
      <DatePicker disabledDate={beforeToday} style={{ width: "100%" }} />
    </Form.Item>
  );
}
