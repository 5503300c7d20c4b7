import { DatePicker, Form } from "antd";
import type { Dayjs } from "dayjs";
import { DISPLAY_TZ, dayjs } from "@/lib/dayjs";

/** Quick ranges ending today (Asia/Shanghai). */
function presets() {
  const today = dayjs().tz(DISPLAY_TZ).startOf("day");
  return [
    { label: "近 7 天", value: [today.subtract(6, "day"), today] as [Dayjs, Dayjs] },
    { label: "近 30 天", value: [today.subtract(29, "day"), today] as [Dayjs, Dayjs] },
    { label: "本月", value: [today.startOf("month"), today] as [Dayjs, Dayjs] },
    { label: "近 90 天", value: [today.subtract(89, "day"), today] as [Dayjs, Dayjs] },
  ];
}

/** A day-range picker with quick ranges; days are Asia/Shanghai days. */
export function DateRangeField(props: {
  id?: string;
  value?: [Dayjs, Dayjs] | null;
  onChange?: (v: [Dayjs, Dayjs] | null) => void;
}) {
  return (
    <DatePicker.RangePicker
      id={props.id}
      value={props.value}
      onChange={(v) => props.onChange?.(v?.[0] && v[1] ? [v[0], v[1]] : null)}
      presets={presets()}
      allowClear
      disabledDate={(d) => d.isAfter(dayjs().tz(DISPLAY_TZ).endOf("day"))}
    />
  );
}

/** A search form's 日期范围 item (field `dates`; rangeToDates turns it into the query's dates). */
export function DateRangeItem() {
  return (
    <Form.Item name="dates" label="日期范围">
      <DateRangeField />
    </Form.Item>
  );
}

/** "YYYY-MM-DD" pair from the picker, or undefined. */
export const rangeToDates = (v: [Dayjs, Dayjs] | null | undefined) =>
  v ? { start_date: v[0].format("YYYY-MM-DD"), end_date: v[1].format("YYYY-MM-DD") } : {};

/** The picker's value from "YYYY-MM-DD" strings. */
export const datesToRange = (start?: string, end?: string): [Dayjs, Dayjs] | null =>
  start && end ? [dayjs(start), dayjs(end)] : null;
