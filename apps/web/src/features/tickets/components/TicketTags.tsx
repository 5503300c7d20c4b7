import {
  type TicketCategory,
  TicketCategoryLabel,
  TicketStatusAdminLabel,
  TicketStatusUserLabel,
} from "@burrow/contract";
import { Tag } from "antd";

const COLOR: Record<number, string> = { 1: "default", 2: "processing", 3: "warning" };

/** A ticket's status; status 2 reads 待回复 to staff and 待管理员回复 to the customer (SPEC §4). */
export function TicketStatusTag({ status, staff = false }: { status: number; staff?: boolean }) {
  const label = (staff ? TicketStatusAdminLabel : TicketStatusUserLabel)[status] ?? String(status);
  return <Tag color={COLOR[status] ?? "default"}>{label}</Tag>;
}

export function TicketCategoryTag({ category }: { category: TicketCategory }) {
  return <Tag color={category === "appeal" ? "red" : "blue"}>{TicketCategoryLabel[category] ?? category}</Tag>;
}
