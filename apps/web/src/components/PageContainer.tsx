import { Typography } from "antd";
import type { ReactNode } from "react";

export interface PageContainerProps {
  title: ReactNode;
  /** actions on the right of the title */
  extra?: ReactNode;
  /** a line under the title */
  description?: ReactNode;
  children: ReactNode;
}

/** The title row and body of a console page. */
export function PageContainer({ title, extra, description, children }: PageContainerProps) {
  return (
    <section className="page">
      <header className="page-header">
        <div>
          <Typography.Title level={3} className="page-title">
            {title}
          </Typography.Title>
          {description ? <Typography.Text type="secondary">{description}</Typography.Text> : null}
        </div>
        {extra ? <div className="page-extra">{extra}</div> : null}
      </header>
      <div className="page-body">{children}</div>
    </section>
  );
}
