import { useQuery } from "@tanstack/react-query";
import { Alert } from "antd";
import { LinkButton } from "@/components/LinkButton";
import { unreadTicketsQuery } from "../tickets.api";

/** The dashboard's notice of staff replies the customer has not read; nothing when there are none. */
export function UnreadTicketsNotice() {
  const { data } = useQuery(unreadTicketsQuery());
  if (!data?.count) return null;
  return (
    <Alert
      type="info"
      showIcon
      className="dashboard-unread-tickets"
      title={`你有 ${data.count} 条未读的工单回复`}
      action={
        <LinkButton size="small" type="primary" to="/help/ticket">
          查看工单
        </LinkButton>
      }
    />
  );
}
