import { type ReachReport, type ReachVerdict, ReachVerdictLabel } from "@burrow/contract";
import { useMutation } from "@tanstack/react-query";
import { Alert, Button, Card, Descriptions, List, Space, Tag, Typography } from "antd";
import { formatTime } from "@/lib/format";
import { checkReach } from "../reach.api";

const TONE: Record<ReachVerdict, "success" | "warning" | "error" | "info"> = {
  ok: "success",
  unverified: "info",
  dns_wrong: "warning",
  disabled: "warning",
  locked: "error",
  frpc_offline: "error",
  local_refused: "error",
  unreachable: "error",
};

const okTag = (ok: boolean) => <Tag color={ok ? "green" : "red"}>{ok ? "正常" : "异常"}</Tag>;

function Report({ r }: { r: ReachReport }) {
  return (
    <Space direction="vertical" style={{ width: "100%" }} size="middle">
      <Alert
        type={TONE[r.verdict]}
        showIcon
        title={ReachVerdictLabel[r.verdict]}
        description={r.summary}
        data-testid="reach-verdict"
      />
      {r.problems.length > 1 ? (
        <List size="small" header="发现的问题" dataSource={r.problems} renderItem={(p) => <List.Item>{p}</List.Item>} />
      ) : null}
      <Descriptions size="small" column={1} bordered>
        <Descriptions.Item label="节点地址">
          {r.node.host}
          {r.node.addresses.length && r.node.addresses[0] !== r.node.host ? `（${r.node.addresses.join("、")}）` : ""}
        </Descriptions.Item>
        {r.connect ? (
          <Descriptions.Item label="TCP 连接">
            <Space wrap>
              {okTag(r.connect.ok)}
              {r.connect.detail}
            </Space>
          </Descriptions.Item>
        ) : null}
        {r.dns.map((d) => (
          <Descriptions.Item key={d.name} label={`DNS ${d.name}`}>
            <Space direction="vertical" size={2}>
              <Space wrap>
                {okTag(d.ok)}
                {d.addresses.length ? `解析到 ${d.addresses.join("、")}` : "无解析"}
                {d.cname ? `（CNAME ${d.cname}）` : ""}
              </Space>
              {d.problem ? <Typography.Text type="danger">{d.problem}</Typography.Text> : null}
              {d.fix ? (
                <Typography.Text copyable={{ text: d.fix.value }}>
                  应设置：{d.fix.type} {d.fix.host} → {d.fix.value}
                </Typography.Text>
              ) : null}
            </Space>
          </Descriptions.Item>
        ))}
        {r.http.map((h) => (
          <Descriptions.Item key={h.url} label={h.url}>
            <Space direction="vertical" size={2}>
              <Space wrap>
                {h.status !== null ? <Tag color={h.status < 400 ? "green" : "orange"}>HTTP {h.status}</Tag> : null}
                {h.detail}
              </Space>
              {h.cert ? (
                <Typography.Text type={h.cert.trusted && h.cert.days_left >= 14 ? undefined : "warning"}>
                  证书 {h.cert.subject}（{h.cert.issuer}），{formatTime(h.cert.valid_to)} 到期，剩 {h.cert.days_left} 天
                  {h.cert.problem ? `；${h.cert.problem}` : ""}
                </Typography.Text>
              ) : null}
            </Space>
          </Descriptions.Item>
        ))}
      </Descriptions>
      <Typography.Text type="secondary">
        检测于 {formatTime(r.checked_at)}，用时 {(r.duration_ms / 1000).toFixed(1)} 秒；本小时还可检测 {r.remaining} 次
      </Typography.Text>
    </Space>
  );
}

/**
 * 外网检测: checks the tunnel from the internet side (the node's port, its names' DNS, the page
 * and certificate through the node) and says in one line what to fix.
 */
export function TunnelReachCard({ tunId }: { tunId: number }) {
  const run = useMutation({ mutationFn: () => checkReach(tunId) });
  return (
    <Card
      title="外网检测"
      className="tunnel-reach-card"
      extra={
        <Button type="primary" loading={run.isPending} onClick={() => run.mutate()}>
          外网检测
        </Button>
      }
    >
      {run.data ? (
        <Report r={run.data} />
      ) : (
        <Typography.Text type="secondary">
          从外网一侧检测这条隧道：节点端口能否连通、域名是否解析到节点、网页状态与证书有效期，10 秒内给出结论（每小时 10
          次）。
        </Typography.Text>
      )}
    </Card>
  );
}
