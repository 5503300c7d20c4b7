import {
  type TicketCategory,
  TicketCategoryLabel,
  TicketStatusAdminLabel,
  TicketStatusUserLabel,
} from "@burrow/contract";
import { Tag } from "antd";
import type { ResponsiveColumn } from "@/components/responsive-columns";

const COLOR: Record<number, string> = { 1: "default", 2: "processing", 3: "warning" };

/** A ticket's status; status 2 reads 待回复 to staff and 待管理员回复 to the customer (SPEC §4). */
export function TicketStatusTag({ status, staff = false }: { status: number; staff?: boolean }) {
  const label = (staff ? TicketStatusAdminLabel : TicketStatusUserLabel)[status] ?? String(status);
  return <Tag color={COLOR[status] ?? "default"}>{label}</Tag>;
}

export function TicketCategoryTag({ category }: { category: TicketCategory }) {
  return <Tag color={category === "appeal" ? "red" : "blue"}>{TicketCategoryLabel[category] ?? category}</Tag>;
}

/** The ticket lists' 分类 column. */
export function ticketCategoryColumn<T extends { category: TicketCategory }>(): ResponsiveColumn<T> {
  return {
    title: "分类",
    priority: 3,
    dataIndex: "category",
    width: 110,
    render: (c: TicketCategory) => <TicketCategoryTag category={c} />,
  };
}

/** The ticket lists' 状态 column, in staff's words or the customer's. */
export function ticketStatusColumn<T extends { status: number }>({
  staff,
  width,
}: {
  staff: boolean;
  width: number;
}): ResponsiveColumn<T> {
  return {
    title: "状态",
    role: "status",
    dataIndex: "status",
    width,
    render: (s: number) => <TicketStatusTag status={s} staff={staff} />,
  };
}
