import type { AssistantConversationRow } from "@burrow/contract";
import { RiAddLine, RiDeleteBinLine } from "@remixicon/react";
import { Button, Card, Empty, List, Popconfirm, Typography } from "antd";
import { formatTime } from "@/lib/format";

interface ConversationListProps {
  conversations: AssistantConversationRow[];
  loading: boolean;
  selected: number | null;
  canStart: boolean;
  onNew: () => void;
  onOpen: (id: number) => void;
  onRemove: (id: number) => Promise<void>;
}

/** The assistant page's side list: the customer's conversations, a new one, deleting one. */
export function ConversationList({
  conversations,
  loading,
  selected,
  canStart,
  onNew,
  onOpen,
  onRemove,
}: ConversationListProps) {
  return (
    <Card
      title="对话"
      size="small"
      extra={
        <Button size="small" icon={<RiAddLine size={14} />} onClick={onNew} disabled={!canStart}>
          新对话
        </Button>
      }
    >
      <List
        size="small"
        loading={loading}
        locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="还没有对话" /> }}
        dataSource={conversations}
        renderItem={(c) => (
          <List.Item
            className={c.id === selected ? "assistant-conv assistant-conv-active" : "assistant-conv"}
            data-testid="assistant-conversation"
            actions={[
              <Popconfirm
                key="del"
                title="删除这个对话？"
                description="对话和其中的消息都会被删除。"
                okText="删除"
                cancelText="取消"
                onConfirm={() => onRemove(c.id)}
              >
                <Button
                  type="text"
                  size="small"
                  danger
                  aria-label={`删除对话 ${c.title}`}
                  icon={<RiDeleteBinLine size={14} />}
                />
              </Popconfirm>,
            ]}
          >
            <button type="button" className="assistant-conv-title" onClick={() => onOpen(c.id)}>
              <Typography.Text ellipsis>{c.title}</Typography.Text>
              <Typography.Text type="secondary" className="assistant-conv-time">
                {formatTime(c.updated_at)}
              </Typography.Text>
            </button>
          </List.Item>
        )}
      />
    </Card>
  );
}
