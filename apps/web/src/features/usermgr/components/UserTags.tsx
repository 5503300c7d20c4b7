import { RoleLabel, UserStatus, UserStatusLabel } from "@burrow/contract";
import { Tag } from "antd";

const roleColor: Record<number, string> = { 1: "default", 2: "blue", 3: "purple" };

/** A user's role as a tag. */
export function RoleTag({ role }: { role: number }) {
  return <Tag color={roleColor[role] ?? "default"}>{RoleLabel[role] ?? `角色 ${role}`}</Tag>;
}

/** A user's status (正常 / 已封禁) as a tag. */
export function UserStatusTag({ status }: { status: number }) {
  return (
    <Tag color={status === UserStatus.Banned ? "error" : "success"}>{UserStatusLabel[status] ?? `状态 ${status}`}</Tag>
  );
}
