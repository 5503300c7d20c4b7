import { Form, InputNumber } from "antd";
import type { ReactNode } from "react";
import { fieldRules } from "@/lib/rules";

/** A list entry's 排序 field (smaller first): a whole number in the server's range for that list. */
export function SortField({
  min = 0,
  max = 1_000_000,
  tooltip,
  extra,
}: {
  min?: number;
  max?: number;
  tooltip?: ReactNode;
  extra?: ReactNode;
}) {
  return (
    <Form.Item
      name="sort"
      label="排序"
      tooltip={tooltip}
      extra={extra}
      rules={fieldRules("排序", { integer: true, range: { min, max } })}
    >
      <InputNumber min={min} max={max} precision={0} style={{ width: "100%" }} />
    </Form.Item>
  );
}
