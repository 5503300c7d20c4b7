import { fenToYuan } from "@burrow/contract";
import { Button } from "antd";
import { Link } from "react-router";
import { ADMIN_BASE } from "@/lib/access";
import { formatTime, phoneText } from "@/lib/format";
import type { ResponsiveColumn, ResponsiveMeta } from "./responsive-columns";

/** Where operators open a customer's page. */
export const customerPath = (uid: number) => `${ADMIN_BASE}/usermgr/list/${uid}`;

/** An admin list's 用户 column: the customer's phone and uid, linking to their page. */
export function customerColumn<T extends { uid: number; phone: string }>(
  meta: ResponsiveMeta & { width: number },
): ResponsiveColumn<T> {
  return {
    title: "用户",
    key: "user",
    ...meta,
    render: (_: unknown, row: T) => (
      <Link to={customerPath(row.uid)}>
        {phoneText(row.phone)}（{row.uid}）
      </Link>
    ),
  };
}

/** A 金额（元） column: the row's `amount` in fen, shown in yuan, right-aligned. */
export function amountColumn<T extends { amount: number }>(
  meta: ResponsiveMeta & { width: number },
): ResponsiveColumn<T> {
  return { title: "金额（元）", dataIndex: "amount", align: "right", ...meta, render: (fen: number) => fenToYuan(fen) };
}

/** A list's 操作 column holding one link (to the row's page). */
export function linkActionColumn<T>(label: string, to: (row: T) => string, width = 80): ResponsiveColumn<T> {
  return { title: "操作", key: "actions", width, render: (_: unknown, row: T) => <Link to={to(row)}>{label}</Link> };
}

/**
 * A list's 操作 column holding one 删除 link button (danger) that calls `onDelete` with the row (which
 * asks to confirm); `label` names the row for assistive technology where the text alone is ambiguous.
 */
export function deleteActionColumn<T>(onDelete: (row: T) => void, label?: (row: T) => string): ResponsiveColumn<T> {
  return {
    title: "操作",
    key: "actions",
    width: 80,
    render: (_: unknown, row: T) => (
      <Button type="link" size="small" danger onClick={() => onDelete(row)} aria-label={label?.(row)}>
        删除
      </Button>
    ),
  };
}

/** A time column: the row's ISO time under `dataIndex`, shown as Shanghai wall-clock time ("-" when unset). */
export function timeColumn<T>(
  title: string,
  dataIndex: NoInfer<keyof T & string>,
  meta: ResponsiveMeta & { width?: number } = {},
): ResponsiveColumn<T> {
  return { title, dataIndex, ...meta, render: (v: string | null) => formatTime(v) };
}

/**
 * A list's status column (role `status`: shown first on a phone card), its value drawn by `render`
 * (a tag, with whatever the row adds to it).
 */
export function statusColumn<T>(
  dataIndex: NoInfer<keyof T & string>,
  width: number,
  render: NonNullable<ResponsiveColumn<T>["render"]>,
  title = "状态",
): ResponsiveColumn<T> {
  return { title, role: "status", dataIndex, width, render };
}
