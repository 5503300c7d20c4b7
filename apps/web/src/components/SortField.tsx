import type { ReactNode } from "react";
import { NumberItem } from "@/components/form/NumberItem";

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
  return <NumberItem name="sort" label="排序" tooltip={tooltip} extra={extra} min={min} max={max} precision={0} />;
}
