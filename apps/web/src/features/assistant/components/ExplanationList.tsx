import type { LogExplanation } from "@burrow/contract";
import { Alert, Space, Typography } from "antd";
import { Link } from "react-router";

/** The rule table's reading of pasted frpc log lines, each with the console page that fixes it. */
export function ExplanationList({ items }: { items: LogExplanation[] }) {
  if (!items.length) return null;
  return (
    <Space orientation="vertical" size={8} style={{ width: "100%" }} data-testid="log-explanations">
      {items.map((e) => (
        <Alert
          key={`${e.rule}:${e.tun_id ?? ""}`}
          type="warning"
          showIcon
          title={e.title}
          description={
            <Space orientation="vertical" size={2} style={{ width: "100%" }}>
              <Typography.Text code className="assistant-log-line">
                {e.line}
              </Typography.Text>
              <Typography.Text>{e.cause}</Typography.Text>
              <Typography.Text>
                处理：{e.action}
                <Link to={e.link.path} className="assistant-fix-link">
                  去处理：{e.link.label}
                </Link>
              </Typography.Text>
            </Space>
          }
        />
      ))}
    </Space>
  );
}
