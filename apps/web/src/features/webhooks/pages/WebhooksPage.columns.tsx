import { WebhookEventLabel, type WebhookView } from "@burrow/contract";
import { Button, Popconfirm, Space, Tag, Typography } from "antd";
import type { ResponsiveColumns } from "@/components/responsive-columns";

function statusTag(h: WebhookView) {
  if (h.status === "active") return <Tag color="success">正常</Tag>;
  return h.paused_reason === "failures" ? <Tag color="error">连续失败已暂停</Tag> : <Tag>已暂停</Tag>;
}

/** What the 操作 column does with its row; the page owns the mutations and the chosen endpoint. */
export interface WebhookRowActions {
  /** the endpoint whose delivery log is shown (its address in bold) */
  shownId: number | undefined;
  /** the endpoint a 测试发送 is under way for */
  testingId: number | undefined;
  onShow: (id: number) => void;
  onTest: (id: number) => void;
  onPauseOrResume: (h: WebhookView) => void;
  /** resolves when deleted: the confirm stays busy until then */
  onDelete: (h: WebhookView) => Promise<unknown>;
}

/** /account/webhooks' columns: the address, its events, its state and the actions on it. */
export function webhookColumns(a: WebhookRowActions): ResponsiveColumns<WebhookView> {
  return [
    {
      title: "地址",
      key: "url",
      role: "title",
      width: 260,
      render: (_, h) => (
        <>
          <div>
            <Typography.Text strong={h.id === a.shownId}>{h.url}</Typography.Text>
          </div>
          {h.description ? <Typography.Text type="secondary">{h.description}</Typography.Text> : null}
        </>
      ),
    },
    {
      title: "事件",
      key: "events",
      priority: 2,
      width: 220,
      render: (_, h) => (
        <Space size={[4, 4]} wrap>
          {h.events.map((e) => (
            <Tag key={e}>{WebhookEventLabel[e]}</Tag>
          ))}
        </Space>
      ),
    },
    {
      title: "状态",
      key: "status",
      role: "status",
      width: 120,
      render: (_, h) => (
        <>
          {statusTag(h)}
          {h.pending ? <Typography.Text type="secondary"> 待投递 {h.pending}</Typography.Text> : null}
        </>
      ),
    },
    {
      title: "操作",
      key: "actions",
      role: "action",
      width: 250,
      render: (_, h) => (
        <Space size={4} wrap>
          <Button size="small" onClick={() => a.onShow(h.id)}>
            投递记录
          </Button>
          <Button size="small" loading={a.testingId === h.id} onClick={() => a.onTest(h.id)}>
            测试发送
          </Button>
          <Button size="small" onClick={() => a.onPauseOrResume(h)}>
            {h.status === "paused" ? "恢复" : "暂停"}
          </Button>
          <Popconfirm
            title="删除此 Webhook？"
            description="待投递的事件和投递记录将一并删除。"
            okText="删除"
            cancelText="取消"
            okButtonProps={{ danger: true }}
            onConfirm={() => a.onDelete(h)}
          >
            <Button size="small" danger>
              删除
            </Button>
          </Popconfirm>
        </Space>
      ),
    },
  ];
}
