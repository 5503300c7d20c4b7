import { invitePath } from "@burrow/contract";
import { useQuery } from "@tanstack/react-query";
import { Card, Col, Descriptions, QRCode, Row, Space, Typography } from "antd";
import { CopyButton } from "@/components/CopyButton";
import { EChart } from "@/components/EChart";
import { PageContainer } from "@/components/PageContainer";
import { affSummaryQuery } from "../affiliate.api";
import { affDaysOption } from "../chart-options";
import { AffTotals } from "../components/AffTotals";

/** The invite link: this page's own origin and the register path (never a server-side header). */
export const inviteLink = (code: string, origin = window.location.origin): string => `${origin}${invitePath(code)}`;

/** /aff/count: invite code, link and QR code; invitees, their paid orders, rebate totals; 30-day chart. */
export function AffCountPage() {
  const { data } = useQuery(affSummaryQuery());
  if (!data) return null;
  const link = inviteLink(data.invite_code);
  const rate = (data.setting.rate_bp / 100).toFixed(2).replace(/\.?0+$/, "");
  return (
    <PageContainer
      title="推广统计"
      description={`好友通过你的邀请链接注册后，其购买套餐、流量包或续费的实付金额的 ${rate}% 将作为返利，${data.setting.hold_days} 天结算期后可提现。充值不计返利。`}
    >
      <Row gutter={[16, 16]}>
        <Col xs={24} lg={16}>
          <Card title="我的邀请">
            <Descriptions column={1} size="small">
              <Descriptions.Item label="邀请码">
                <Space>
                  <Typography.Text strong data-testid="invite-code">
                    {data.invite_code}
                  </Typography.Text>
                  <CopyButton size="small" text={data.invite_code} done="邀请码已复制" />
                </Space>
              </Descriptions.Item>
              <Descriptions.Item label="邀请链接">
                <Space wrap>
                  <Typography.Text code data-testid="invite-link">
                    {link}
                  </Typography.Text>
                  <CopyButton size="small" text={link} done="邀请链接已复制" />
                </Space>
              </Descriptions.Item>
            </Descriptions>
          </Card>
        </Col>
        <Col xs={24} lg={8}>
          <Card title="邀请二维码">
            <Space direction="vertical" align="center" style={{ width: "100%" }}>
              <QRCode value={link} size={144} aria-label="邀请链接二维码" />
              <Typography.Text type="secondary">扫码打开注册页</Typography.Text>
            </Space>
          </Card>
        </Col>
      </Row>
      <AffTotals data={data} extra />
      <Card title="近 30 天返利与邀请">
        <EChart option={affDaysOption(data.days)} label="近 30 天返利与邀请注册趋势" height={280} />
      </Card>
    </PageContainer>
  );
}
