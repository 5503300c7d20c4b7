import { useQuery } from "@tanstack/react-query";
import { Alert, Button } from "antd";
import { useNavigate } from "react-router";
import { unreadTicketsQuery } from "../tickets.api";

/** The dashboard's notice of staff replies the customer has not read; nothing when there are none. */
export function UnreadTicketsNotice() {
  const navigate = useNavigate();
  const { data } = useQuery(unreadTicketsQuery());
  if (!data?.count) return null;
  return (
    <Alert
      type="info"
      showIcon
      className="dashboard-unread-tickets"
      title={`你有 ${data.count} 条未读的工单回复`}
      action={
        <Button size="small" type="primary" onClick={() => navigate("/help/ticket")}>
          查看工单
        </Button>
      }
    />
  );
}
