import { useQuery } from "@tanstack/react-query";
import { PageContainer } from "@/components/PageContainer";
import { AffSettingCard } from "@/features/affiliate/components/AffSettingCard";
import { useAccess } from "@/hooks/useAccess";
import { AssistantCard, DefaultsCard, SecurityCard, SiteCard } from "../components/EnvSettingCards";
import { VerifyCard } from "../components/VerifyCard";
import { siteSettingsQuery } from "../settings.api";

/**
 * /admin/setting: every site-wide setting on one page. The verification requirement and the
 * affiliate programme are changed here (audited); the rest comes from the server's environment
 * and says which variables change it.
 */
export function SettingsPage() {
  const { canWrite } = useAccess();
  const { data } = useQuery(siteSettingsQuery());
  return (
    <PageContainer title="站点设置">
      {data ? (
        <div className="tab-stack">
          <VerifyCard s={data} canWrite={canWrite} />
          <AffSettingCard />
          <AssistantCard s={data} />
          <DefaultsCard s={data} />
          <SiteCard s={data} />
          <SecurityCard s={data} />
        </div>
      ) : null}
    </PageContainer>
  );
}
