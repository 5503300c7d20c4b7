import { Form, type FormItemProps, type FormRule, InputNumber } from "antd";
import type { ReactNode } from "react";
import { fieldRules } from "@/lib/rules";

export interface NumberItemProps extends Pick<FormItemProps, "name" | "extra" | "tooltip" | "dependencies" | "style"> {
  label: ReactNode;
  /** the field as the messages name it ("绑定端口"), where the label adds a unit or frp's key; the label by default */
  ruleLabel?: string;
  min: number;
  max: number;
  required?: boolean;
  /** decimals the input keeps; 0 also makes the rules refuse a fraction. Unset: any number. */
  precision?: number;
  step?: number;
  placeholder?: string;
  disabled?: boolean;
  /** checks after the generated ones (another field's bound) */
  rules?: FormRule[];
}

/**
 * A number field whose input bounds and rule bounds are the same two numbers, with the generic
 * messages of lib/rules (请输入…, …范围为 min-max, …格式不正确 for a fraction where precision is 0).
 */
export function NumberItem({
  name,
  label,
  ruleLabel,
  min,
  max,
  required,
  precision,
  step,
  placeholder,
  disabled,
  rules = [],
  ...item
}: NumberItemProps) {
  const messages = ruleLabel ?? (typeof label === "string" ? label : String(name));
  return (
    <Form.Item
      name={name}
      label={label}
      rules={[...fieldRules(messages, { required, integer: precision === 0, range: { min, max } }), ...rules]}
      {...item}
    >
      <InputNumber
        min={min}
        max={max}
        precision={precision}
        step={step}
        placeholder={placeholder}
        disabled={disabled}
        style={{ width: "100%" }}
      />
    </Form.Item>
  );
}

/** A TCP/UDP port: a whole number from 1 to 65535. */
export function PortItem(props: Omit<NumberItemProps, "min" | "max" | "precision" | "step">) {
  return <NumberItem {...props} min={1} max={65535} precision={0} />;
}
