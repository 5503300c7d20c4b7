import { type AdminUpdateUserBody, type AdminUserDetail, fenToYuan, RoleLabel, yuanToFen } from "@burrow/contract";
import { phoneText } from "@/lib/format";

/** The changes an operator can make from the detail page. */
export type UserAction = "nickname" | "role" | "ban" | "balance" | "password";

export interface ActionForm {
  nickname?: string;
  role?: 1 | 2 | 3;
  ban_reason?: string;
  direction?: "add" | "deduct";
  amount?: number;
  balance_reason?: string;
  password?: string;
  confirm?: string;
}

export const actionTitles: Record<UserAction, string> = {
  nickname: "修改昵称",
  role: "修改角色",
  ban: "封禁用户",
  balance: "调整余额",
  password: "重置密码",
};

/**
 * Builds the PATCH body and the confirmation text of an action.
 * @param action the action
 * @param user the user being changed
 * @param v the form values
 */
export function buildUpdate(
  action: UserAction,
  user: Pick<AdminUserDetail, "uid" | "phone">,
  v: ActionForm,
): { body: AdminUpdateUserBody; confirm: string } {
  const who = `${phoneText(user.phone)}（UID ${user.uid}）`;
  switch (action) {
    case "nickname":
      return {
        body: { uid: user.uid, nickname: v.nickname?.trim() },
        confirm: `确认将 ${who} 的昵称改为「${v.nickname?.trim()}」？`,
      };
    case "role":
      return {
        body: { uid: user.uid, role: v.role },
        confirm: `确认将 ${who} 的角色改为「${RoleLabel[v.role ?? 1]}」？`,
      };
    case "ban":
      return {
        body: { uid: user.uid, status: -1, ban_reason: v.ban_reason?.trim() },
        confirm: `确认封禁 ${who}？该用户将被立即强制下线且无法登录。`,
      };
    case "balance": {
      const fen = yuanToFen(v.amount ?? 0) * (v.direction === "deduct" ? -1 : 1);
      return {
        body: { uid: user.uid, balance_change: fen, balance_reason: v.balance_reason?.trim() },
        confirm: `确认为 ${who} ${fen < 0 ? "扣减" : "增加"}余额 ¥${fenToYuan(Math.abs(fen))}？`,
      };
    }
    case "password":
      return {
        body: { uid: user.uid, password: v.password },
        confirm: `确认重置 ${who} 的密码？该用户需使用新密码重新登录。`,
      };
  }
}
