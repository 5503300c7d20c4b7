import { Form, type FormItemProps, type FormRule, Input } from "antd";
import type { ReactNode } from "react";
import type { ZodType } from "zod";
import { fieldRules, schemaRule } from "@/lib/rules";

export interface TextItemProps extends Pick<FormItemProps, "name" | "extra" | "tooltip" | "dependencies"> {
  label: ReactNode;
  /** the field as the messages name it, where the label says more; the label by default */
  ruleLabel?: string;
  required?: boolean;
  /** length bounds the rules check (the input's own cap is `maxLength`) */
  length?: { min?: number; max?: number };
  /** the contract's schema for the value (lib/rules schemaRule), checked after the generated rules */
  schema?: ZodType;
  /** checks after the generated ones */
  rules?: FormRule[];
  /** a text area of that many rows instead of a one-line input */
  rows?: number;
  maxLength?: number;
  showCount?: boolean;
  placeholder?: string;
  autoComplete?: string;
  disabled?: boolean;
}

/** A text field with the generic messages of lib/rules (请输入…, …长度为 min-max 位) and, if given, the contract's rule. */
export function TextItem({
  name,
  label,
  ruleLabel,
  required,
  length,
  schema,
  rules = [],
  rows,
  maxLength,
  showCount,
  placeholder,
  autoComplete,
  disabled,
  ...item
}: TextItemProps) {
  const messages = ruleLabel ?? (typeof label === "string" ? label : String(name));
  const all = [...fieldRules(messages, { required, length }), ...(schema ? [schemaRule(schema)] : []), ...rules];
  const input = { maxLength, placeholder, autoComplete, disabled };
  return (
    <Form.Item name={name} label={label} rules={all} {...item}>
      {rows ? <Input.TextArea rows={rows} showCount={showCount} {...input} /> : <Input {...input} />}
    </Form.Item>
  );
}
