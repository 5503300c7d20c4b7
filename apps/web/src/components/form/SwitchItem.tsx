import { Form, type FormItemProps, Switch } from "antd";
import type { ReactNode } from "react";

/** An on/off field (the form value is the boolean). */
export function SwitchItem({
  name,
  label,
  extra,
  ariaLabel,
}: Pick<FormItemProps, "name" | "extra"> & { label: ReactNode; ariaLabel?: string }) {
  return (
    <Form.Item name={name} label={label} valuePropName="checked" extra={extra}>
      <Switch aria-label={ariaLabel} />
    </Form.Item>
  );
}
