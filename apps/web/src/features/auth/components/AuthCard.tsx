import { useQuery } from "@tanstack/react-query";
import { Typography } from "antd";
import type { ReactNode } from "react";
import { siteQuery } from "@/features/shell/shell.api";

export interface AuthCardProps {
  title: string;
  subtitle?: string;
  children: ReactNode;
}

/** The two-panel card of the public pages: brand on the left (wide screens), the form on the right. */
export function AuthCard({ title, subtitle, children }: AuthCardProps) {
  const { data: site } = useQuery(siteQuery());
  return (
    <div className="auth-card">
      <aside className="auth-brand" aria-hidden>
        <img src="/favicon.svg" alt="" width={44} height={44} />
        <div className="auth-brand-name">{site?.brand}</div>
        <p className="auth-brand-slogan">安全、稳定的内网穿透服务</p>
        <ul className="auth-brand-points">
          <li>TCP / UDP / HTTP / HTTPS 多协议隧道</li>
          <li>多地域节点，按需选择</li>
          <li>一份配置，frpc 即连即用</li>
        </ul>
      </aside>
      <div className="auth-form">
        <Typography.Title level={2} className="auth-title">
          {title}
        </Typography.Title>
        {subtitle ? (
          <Typography.Paragraph type="secondary" className="auth-subtitle">
            {subtitle}
          </Typography.Paragraph>
        ) : null}
        {children}
      </div>
    </div>
  );
}
