import type { UserInfo } from "@burrow/contract";
import { RiArrowDownSLine, RiLogoutBoxRLine, RiUserLine } from "@remixicon/react";
import { useQueryClient } from "@tanstack/react-query";
import { Avatar, Dropdown, type MenuProps } from "antd";
import { useNavigate } from "react-router";
import { logout } from "@/features/auth/auth.api";
import { endSession } from "@/features/auth/session";
import { avatarInitial } from "@/lib/format";
import { clearToken } from "@/lib/token";

/** The header's user dropdown: avatar and phone; 个人中心 and 退出登录 (SPEC §2 "Shell"). */
export function UserMenu({ user }: { user: UserInfo }) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();

  const signOut = async () => {
    try {
      await logout();
    } catch {
      // The session may already be gone; signing out locally is what matters.
    }
    // The token goes first so that nothing still mounted can call the API with it.
    clearToken();
    await navigate("/login", { replace: true });
    endSession(queryClient);
  };

  const items: MenuProps["items"] = [
    { key: "account", icon: <RiUserLine size={16} />, label: "个人中心" },
    { type: "divider" },
    { key: "logout", icon: <RiLogoutBoxRLine size={16} />, label: "退出登录", danger: true },
  ];

  const onClick: MenuProps["onClick"] = ({ key }) => {
    if (key === "account") void navigate("/account/info");
    if (key === "logout") void signOut();
  };

  const avatar = user.personal_info.avatar;
  return (
    <Dropdown menu={{ items, onClick }} trigger={["click"]} placement="bottomRight">
      <button type="button" className="shell-user" aria-label={`用户菜单 ${user.personal_info.phone_number}`}>
        <Avatar size={32} src={avatar || undefined} alt="头像">
          {avatar ? null : avatarInitial(user)}
        </Avatar>
        <span className="shell-user-phone">{user.personal_info.phone_number}</span>
        <RiArrowDownSLine size={16} aria-hidden />
      </button>
    </Dropdown>
  );
}
