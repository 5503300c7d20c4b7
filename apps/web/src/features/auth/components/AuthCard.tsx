import type { ReactNode } from "react";
import { useSite } from "@/components/PublicFrame";

export interface AuthCardProps {
  title: string;
  subtitle?: string;
  children: ReactNode;
}

/**
 * The two-panel card of the public pages: brand on the left (wide screens), the form on the right.
 * Plain headings rather than antd Typography, which /login's first load would otherwise carry.
 */
export function AuthCard({ title, subtitle, children }: AuthCardProps) {
  const site = useSite();
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
        <h2 className="auth-title">{title}</h2>
        {subtitle ? <p className="auth-subtitle">{subtitle}</p> : null}
        {children}
      </div>
    </div>
  );
}
