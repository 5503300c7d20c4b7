import { Col, Form, Input, InputNumber, Select, type SelectProps } from "antd";
import { fieldRules } from "@/lib/rules";

type Width = number | string;

/**
 * A search form's whole-number id filter (UID, 订单 ID…): at least 1.
 * @param rule the field's name in error texts (the label unless given)
 */
export function IdFilter({
  name,
  label,
  rule = label,
  width,
}: {
  name: string;
  label: string;
  rule?: string;
  width: Width;
}) {
  return (
    <Form.Item name={name} label={label} rules={fieldRules(rule, { integer: true, range: { min: 1 } })}>
      <InputNumber min={1} precision={0} style={{ width }} />
    </Form.Item>
  );
}

/** A search form's text filter of at most `max` characters. */
export function TextFilter({
  name,
  label,
  max,
  placeholder,
  width,
}: {
  name: string;
  label: string;
  max: number;
  placeholder?: string;
  width?: Width;
}) {
  return (
    <Form.Item name={name} label={label} rules={fieldRules(label, { length: { max } })}>
      <Input allowClear placeholder={placeholder} style={width === undefined ? undefined : { width }} />
    </Form.Item>
  );
}

/** A search form's choice filter; cleared, it is 全部. */
export function SelectFilter({
  name,
  label,
  options,
  width,
}: {
  name: string;
  label: string;
  /** undefined while they load */
  options: SelectProps["options"];
  width?: Width;
}) {
  return (
    <Form.Item name={name} label={label}>
      <Select allowClear placeholder="全部" style={width === undefined ? undefined : { width }} options={options} />
    </Form.Item>
  );
}

/** A grid search form's column: six fields a row on wide screens, fewer on narrow ones. */
export const SEARCH_COL = { xs: 24, sm: 12, lg: 8, xl: 4 } as const;

/** The customer filters of an operator's grid search (`uid`, then the full phone number): two cells. */
export function CustomerFilterCols() {
  return (
    <>
      <Col {...SEARCH_COL}>
        <IdFilter name="uid" label="UID" width="100%" />
      </Col>
      <Col {...SEARCH_COL}>
        <TextFilter name="phone" label="手机号" max={20} placeholder="完整手机号" />
      </Col>
    </>
  );
}
