import { PayGatewayLabel, type SiteSettings, SmsDriverLabel } from "@burrow/contract";
import { Card, Descriptions, type DescriptionsProps, Space, Tag, Typography } from "antd";
import { Link } from "react-router";
import { ADMIN_BASE } from "@/lib/access";
import { FromEnv } from "./FromEnv";

// The settings that come from the server's environment, each saying which variables change it.

const hours = (sec: number) => (sec % 3600 === 0 ? `${sec / 3600} 小时` : `${Math.round(sec / 60)} 分钟`);

export function AssistantCard({ s }: { s: SiteSettings }) {
  const a = s.assistant;
  const items: DescriptionsProps["items"] = [
    {
      key: "configured",
      label: "AI 接口",
      children: (
        <FromEnv vars={["AI_BASE_URL", "AI_MODEL", "AI_API_KEY"]}>
          {a.configured ? <Tag color="success">已接入（{a.model}）</Tag> : <Tag>未接入：只提供离线的日志解读</Tag>}
        </FromEnv>
      ),
    },
    {
      key: "limit",
      label: "每人每天提问",
      children: <FromEnv vars={["AI_DAILY_LIMIT"]}>{a.daily_limit} 次</FromEnv>,
    },
    { key: "timeout", label: "单次回答时限", children: <FromEnv vars={["AI_TIMEOUT"]}>{a.timeout_sec} 秒</FromEnv> },
  ];
  return (
    <Card title="frpc 助手" size="small">
      <Descriptions column={1} size="small" items={items} />
    </Card>
  );
}

export function DefaultsCard({ s }: { s: SiteSettings }) {
  const d = s.defaults;
  const items: DescriptionsProps["items"] = [
    {
      key: "plan",
      label: "新用户默认套餐",
      children: (
        <Space orientation="vertical" size={0}>
          <span>{d.default_plan ? d.default_plan.name : "未设置（新用户没有套餐）"}</span>
          <Link to={`${ADMIN_BASE}/plan`}>在套餐管理中修改</Link>
        </Space>
      ),
    },
    {
      key: "checkin",
      label: "每日签到流量",
      children: (
        <FromEnv vars={["CHECKIN_MIN_MB", "CHECKIN_MAX_MB"]}>
          {d.checkin_min_mb}–{d.checkin_max_mb} MB，计入当前套餐
        </FromEnv>
      ),
    },
    {
      key: "grace",
      label: "域名保留期",
      children: <FromEnv vars={["DOMAIN_GRACE_HOURS"]}>隧道删除后保留 {d.domain_grace_hours} 小时</FromEnv>,
    },
    { key: "session", label: "登录有效期", children: <FromEnv vars={["JWT_TTL"]}>{hours(d.session_ttl_sec)}</FromEnv> },
  ];
  return (
    <Card title="默认值" size="small">
      <Descriptions column={1} size="small" items={items} />
    </Card>
  );
}

export function SiteCard({ s }: { s: SiteSettings }) {
  const items: DescriptionsProps["items"] = [
    {
      key: "url",
      label: "站点公网地址",
      children: (
        <FromEnv vars={["PUBLIC_URL"]}>
          {s.site.public_url ?? <Typography.Text type="warning">未设置</Typography.Text>}
        </FromEnv>
      ),
    },
    {
      key: "payment",
      label: "支付网关",
      children: <FromEnv vars={["EPAY_URL", "EPAY_PID", "EPAY_KEY"]}>{PayGatewayLabel[s.site.payment]}</FromEnv>,
    },
    {
      key: "sms",
      label: "短信发送",
      children: <FromEnv vars={["SMS_DRIVER", "SMS_HTTP_URL"]}>{SmsDriverLabel[s.site.sms]}</FromEnv>,
    },
  ];
  return (
    <Card title="站点与网关" size="small" extra={<Link to={`${ADMIN_BASE}/view`}>设置清单</Link>}>
      <Descriptions column={1} size="small" items={items} />
    </Card>
  );
}

export function SecurityCard({ s }: { s: SiteSettings }) {
  const items: DescriptionsProps["items"] = [
    {
      key: "staff-mfa",
      label: "管理人员两步验证",
      children: (
        <FromEnv vars={["STAFF_MFA_REQUIRED"]}>
          {s.security.staff_mfa_required
            ? "必须启用：管理员和客服登录时需输入两步验证码，未启用者登录后须先完成设置"
            : "不强制（各账号可在个人中心自行启用）"}
        </FromEnv>
      ),
    },
    {
      key: "mfa-key",
      label: "两步验证密钥加密",
      children: (
        <FromEnv vars={["MFA_SECRET_KEY"]}>
          {s.security.mfa_key_configured ? (
            "已配置"
          ) : (
            <Typography.Text type="warning">
              未配置（非生产环境使用数据库中生成的密钥；生产环境不能启用两步验证）
            </Typography.Text>
          )}
        </FromEnv>
      ),
    },
  ];
  return (
    <Card title="登录安全" size="small">
      <Descriptions column={1} size="small" items={items} />
    </Card>
  );
}
