import { PayGatewayLabel, type SiteSettings, SmsDriverLabel, VerifyModeLabel } from "@burrow/contract";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Card, Descriptions, type DescriptionsProps, Space, Switch, Tag, Typography } from "antd";
import type { ReactNode } from "react";
import { Link } from "react-router";
import { PageContainer } from "@/components/PageContainer";
import { AffSettingCard } from "@/features/affiliate/components/AffSettingCard";
import { updateVerifySetting, verifyKeys } from "@/features/verify/verify.api";
import { useAccess } from "@/hooks/useAccess";
import { ADMIN_BASE } from "@/lib/access";
import { feedback } from "@/lib/feedback";
import { settingsKeys, siteSettingsQuery } from "../settings.api";

/** A value set by the server's environment: the value, then the variables that change it. */
function FromEnv({ children, vars }: { children: ReactNode; vars: string[] }) {
  return (
    <Space orientation="vertical" size={0}>
      <span>{children}</span>
      <Typography.Text type="secondary">环境变量 {vars.join("、")}（修改后重启生效）</Typography.Text>
    </Space>
  );
}

const hours = (sec: number) => (sec % 3600 === 0 ? `${sec / 3600} 小时` : `${Math.round(sec / 60)} 分钟`);

function VerifyCard({ s, canWrite }: { s: SiteSettings; canWrite: boolean }) {
  const queryClient = useQueryClient();
  const toggle = useMutation({
    mutationFn: updateVerifySetting,
    onSuccess: async () => {
      feedback.success("设置已保存");
      await queryClient.invalidateQueries({ queryKey: settingsKeys.all });
      await queryClient.invalidateQueries({ queryKey: verifyKeys.setting() });
    },
  });
  const items: DescriptionsProps["items"] = [
    {
      key: "required",
      label: "创建隧道需要实名认证",
      children: (
        <Switch
          aria-label="创建隧道需要实名认证"
          checked={s.verify.required_for_tunnels}
          disabled={!canWrite}
          loading={toggle.isPending}
          onChange={(on) => toggle.mutate({ required_for_tunnels: on })}
        />
      ),
    },
    {
      key: "mode",
      label: "认证方式",
      children: (
        <FromEnv vars={["VERIFY_PROVIDER", "VERIFY_URL"]}>
          {VerifyModeLabel[s.verify.mode]}
          {s.verify.mode === "manual" ? (
            <>
              {" "}
              <Link to={`${ADMIN_BASE}/verify/list`}>实名审核</Link>
            </>
          ) : null}
        </FromEnv>
      ),
    },
  ];
  return (
    <Card title="实名认证" size="small">
      <Descriptions column={1} size="small" items={items} />
    </Card>
  );
}

function AssistantCard({ s }: { s: SiteSettings }) {
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

function DefaultsCard({ s }: { s: SiteSettings }) {
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

function SiteCard({ s }: { s: SiteSettings }) {
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

function SecurityCard({ s }: { s: SiteSettings }) {
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
