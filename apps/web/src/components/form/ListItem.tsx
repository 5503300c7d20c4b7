import { Form, type FormItemProps, Select } from "antd";
import type { ReactNode } from "react";
import type { ZodType } from "zod";
import { eachRule } from "@/lib/rules";

export interface ListItemProps extends Pick<FormItemProps, "name" | "extra"> {
  label: ReactNode;
  /** the contract's schema of one entry: every entry typed must pass it */
  schema: ZodType;
  /** keys that end an entry besides Enter (",", " ", a pasted newline) */
  separators?: string[];
  placeholder?: string;
  ariaLabel?: string;
}

/** A list of values typed one by one (domains, paths, addresses): tags without a dropdown. */
export function ListItem({ name, label, extra, schema, separators, placeholder, ariaLabel }: ListItemProps) {
  return (
    <Form.Item name={name} label={label} extra={extra} rules={[eachRule(schema)]}>
      <Select
        mode="tags"
        open={false}
        suffixIcon={null}
        tokenSeparators={separators}
        placeholder={placeholder}
        aria-label={ariaLabel}
      />
    </Form.Item>
  );
}
