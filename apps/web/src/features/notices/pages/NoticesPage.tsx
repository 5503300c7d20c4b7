import { Tabs } from "antd";
import { useSearchParams } from "react-router";
import { PageContainer } from "@/components/PageContainer";
import { NoticeList } from "../components/NoticeList";
import { NoticeSettingsCard } from "../components/NoticeSettingsCard";

/** 消息通知: the notification centre, and which channels each kind of notice takes. */
export function NoticesPage() {
  const [params, setParams] = useSearchParams();
  const tab = params.get("tab") === "settings" ? "settings" : "list";
  return (
    <PageContainer title="消息通知" description="隧道状态、流量、套餐、订单、工单等提醒；可以选择每类提醒的通知方式。">
      <Tabs
        activeKey={tab}
        onChange={(key) => setParams(key === "settings" ? { tab: key } : {}, { replace: true })}
        items={[
          { key: "list", label: "消息", children: <NoticeList /> },
          { key: "settings", label: "通知设置", children: <NoticeSettingsCard /> },
        ]}
      />
    </PageContainer>
  );
}
