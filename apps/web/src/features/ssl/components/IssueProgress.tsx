import { type SslOrderView, SslStepLabels } from "@burrow/contract";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { Alert, Button, Card, Descriptions, Popconfirm, Space, Steps, Tag, Typography } from "antd";
import { CopyButton } from "@/components/CopyButton";
import { formatTime } from "@/lib/format";
import { cancelIssue, checkIssue, sslKeys } from "../ssl.api";

const FLOW = ["waiting", "validating", "finalizing", "issued"] as const;

/** One ACME issue: its steps, the record or file to put in place, and what the last check found. */
export function IssueProgress({ order }: { order: SslOrderView }) {
  const queryClient = useQueryClient();
  const refresh = () => queryClient.invalidateQueries({ queryKey: sslKeys.all });
  const check = useMutation({ mutationFn: () => checkIssue(order.id), onSettled: refresh });
  const cancel = useMutation({ mutationFn: () => cancelIssue(order.id), onSettled: refresh });
  const ended = ["issued", "failed", "cancelled"].includes(order.step);
  // A failed or cancelled issue marks the step it stopped at.
  const reached = [...order.history].reverse().find((h) => (FLOW as readonly string[]).includes(h.step))?.step;
  const current = Math.max(0, FLOW.indexOf((reached ?? "waiting") as (typeof FLOW)[number]));
  const status =
    order.step === "failed" || order.step === "cancelled" ? "error" : order.step === "issued" ? "finish" : "process";
  const at = (step: string) => order.history.find((h) => h.step === step)?.at;
  const dns = order.challenge === "dns-01";
  return (
    <Card
      size="small"
      title={
        <Space>
          <span>{order.domain}</span>
          <Tag>{dns ? "DNS-01（TXT 记录）" : "HTTP-01（验证文件）"}</Tag>
          {order.renewal ? <Tag color="blue">自动续期</Tag> : null}
          {ended ? <Tag color={order.step === "issued" ? "green" : "default"}>{SslStepLabels[order.step]}</Tag> : null}
        </Space>
      }
      extra={<Typography.Text type="secondary">{formatTime(order.created_at)}</Typography.Text>}
      data-testid={`ssl-order-${order.id}`}
    >
      <Space orientation="vertical" size={12} style={{ width: "100%" }}>
        <Steps
          size="small"
          current={current}
          status={status}
          items={FLOW.map((s) => ({ title: SslStepLabels[s], description: at(s) ? formatTime(at(s)) : undefined }))}
        />
        {order.record ? (
          <Descriptions column={1} size="small" bordered>
            <Descriptions.Item label={dns ? "记录类型" : "验证方式"}>
              {dns ? "TXT" : "在该域名的 80 端口（http）上提供下面的文件，内容为纯文本"}
            </Descriptions.Item>
            <Descriptions.Item label={dns ? "主机记录" : "文件地址"}>
              <Space wrap>
                <Typography.Text code>{order.record.name}</Typography.Text>
                <CopyButton size="small" text={order.record.name} />
              </Space>
            </Descriptions.Item>
            <Descriptions.Item label={dns ? "记录值" : "文件内容"}>
              <Space wrap>
                <Typography.Text code data-testid="ssl-record-value">
                  {order.record.value}
                </Typography.Text>
                <CopyButton size="small" text={order.record.value} />
              </Space>
            </Descriptions.Item>
          </Descriptions>
        ) : null}
        {order.message ? (
          <Alert
            type={order.step === "failed" ? "error" : order.step === "issued" ? "success" : "info"}
            showIcon
            title={order.message}
            description={
              !ended && order.next_check_at && dns ? `下次自动检测：${formatTime(order.next_check_at)}` : undefined
            }
          />
        ) : null}
        {ended ? null : (
          <Space>
            {order.step === "waiting" ? (
              <Button type="primary" loading={check.isPending} onClick={() => check.mutate()}>
                {dns ? "立即检测" : "文件已放好，开始验证"}
              </Button>
            ) : null}
            <Popconfirm title="取消这次签发？" onConfirm={() => cancel.mutate()}>
              <Button loading={cancel.isPending}>取消签发</Button>
            </Popconfirm>
          </Space>
        )}
      </Space>
    </Card>
  );
}
