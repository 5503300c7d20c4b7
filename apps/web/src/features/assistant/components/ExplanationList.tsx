import type { LogExplanation } from "@burrow/contract";
import { useQuery } from "@tanstack/react-query";
import { Alert, Space, Typography } from "antd";
import { Link } from "react-router";
import { tunnelDetailQuery } from "@/features/tunnels/tunnels.api";

/**
 * Where to fix it. A line about one of the customer's tunnels names it as the console does (its
 * name, not frpc's `t_<id>`); a tunnel that is not theirs (or gone) keeps the rule's label.
 */
function FixLink({ e }: { e: LogExplanation }) {
  const { data: tunnel } = useQuery({
    ...tunnelDetailQuery(e.tun_id ?? 0),
    enabled: e.tun_id !== null,
    meta: { silentError: true },
  });
  return (
    <Link to={e.link.path} className="assistant-fix-link">
      去处理：{tunnel ? `隧道「${tunnel.tun_name}」` : e.link.label}
    </Link>
  );
}

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
                <FixLink e={e} />
              </Typography.Text>
            </Space>
          }
        />
      ))}
    </Space>
  );
}
