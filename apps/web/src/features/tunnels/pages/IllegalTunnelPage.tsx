import { Tabs } from "antd";
import { useSearchParams } from "react-router";
import { PageContainer } from "@/components/PageContainer";
import { useAccess } from "@/hooks/useAccess";
import { IllegalFlagList } from "../components/IllegalFlagList";
import { IllegalRuleList } from "../components/IllegalRuleList";

/** /admin/tun/illegal: flagged tunnels (ban / clear) and the rules that flag them. */
export function IllegalTunnelPage() {
  const { canWrite } = useAccess();
  const [params, setParams] = useSearchParams();
  const tab = params.get("tab") === "rules" ? "rules" : "flags";
  return (
    <PageContainer title="违规隧道">
      <Tabs
        activeKey={tab}
        onChange={(key) => setParams(key === "rules" ? new URLSearchParams({ tab: "rules" }) : new URLSearchParams())}
        items={[
          { key: "flags", label: "违规记录", children: <IllegalFlagList canWrite={canWrite} /> },
          { key: "rules", label: "检测规则", children: <IllegalRuleList canWrite={canWrite} /> },
        ]}
      />
    </PageContainer>
  );
}
