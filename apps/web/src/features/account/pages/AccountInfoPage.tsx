import { useQuery } from "@tanstack/react-query";
import { Col, Row } from "antd";
import { PageContainer } from "@/components/PageContainer";
import { ApiTokensCard } from "@/features/apitokens/components/ApiTokensCard";
import { LaunchTokenCard } from "@/features/launch/components/LaunchTokenCard";
import { OidcBindingsCard } from "@/features/oidc/components/OidcBindingsCard";
import { userInfoQuery } from "../account.api";
import { ChangePasswordCard } from "../components/ChangePasswordCard";
import { ChangePhoneCard } from "../components/ChangePhoneCard";
import { FrpTokenCard } from "../components/FrpTokenCard";
import { LoginHistoryCard } from "../components/LoginHistoryCard";
import { PasskeysCard } from "../components/PasskeysCard";
import { ProfileCard } from "../components/ProfileCard";
import { SessionsCard } from "../components/SessionsCard";
import { TwoFactorCard } from "../components/TwoFactorCard";

/** /account/info: the personal centre. */
export function AccountInfoPage() {
  const { data: user } = useQuery(userInfoQuery());
  if (!user) return null;
  return (
    <PageContainer title="个人中心">
      <Row gutter={[16, 16]}>
        <Col xs={24} xl={12}>
          <ProfileCard user={user} />
        </Col>
        <Col xs={24} xl={12}>
          <FrpTokenCard token={user.frp_token} />
        </Col>
        <Col xs={24} xl={12}>
          <LaunchTokenCard />
        </Col>
        <Col xs={24} xl={12}>
          <ChangePasswordCard />
        </Col>
        <Col xs={24} xl={12}>
          <ChangePhoneCard currentPhone={user.personal_info.phone_number} />
        </Col>
        <Col xs={24} xl={12}>
          <OidcBindingsCard user={user} />
        </Col>
        <Col xs={24} xl={12}>
          <TwoFactorCard />
        </Col>
        <Col span={24}>
          <PasskeysCard />
        </Col>
        <Col span={24}>
          <SessionsCard />
        </Col>
        <Col span={24}>
          <ApiTokensCard />
        </Col>
        <Col span={24}>
          <LoginHistoryCard />
        </Col>
      </Row>
    </PageContainer>
  );
}
