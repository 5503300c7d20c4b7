import { RiNotification3Line } from "@remixicon/react";
import { useQuery } from "@tanstack/react-query";
import { Badge } from "antd";
import { Link } from "react-router";
import { unreadNoticesQuery } from "../notices.api";

/** The top bar's bell: the unread count, a link to 消息通知. */
export function NoticeBell() {
  const { data } = useQuery(unreadNoticesQuery());
  const count = data?.count ?? 0;
  return (
    <Link to="/notices" className="shell-notice-bell" aria-label={count ? `消息通知，${count} 条未读` : "消息通知"}>
      <Badge count={count} size="small" overflowCount={99}>
        <RiNotification3Line size={20} aria-hidden />
      </Badge>
    </Link>
  );
}
