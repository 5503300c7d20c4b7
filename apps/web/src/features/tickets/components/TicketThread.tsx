import type { TicketMessageView } from "@burrow/contract";
import { Card, Image, Space, Tag, Typography } from "antd";
import { formatTime } from "@/lib/format";
import { AttachmentImage } from "./AttachmentImage";

export interface TicketThreadProps {
  messages: TicketMessageView[];
  /** the viewer is staff: their side is "客服", the other "用户" */
  staffView?: boolean;
}

/** A ticket's messages, oldest first; message text is shown as plain text (never as HTML). */
export function TicketThread({ messages, staffView = false }: TicketThreadProps) {
  return (
    <Space orientation="vertical" size={12} style={{ width: "100%" }} className="ticket-thread">
      {messages.map((m) => (
        <Card
          key={m.id}
          size="small"
          className={m.staff ? "ticket-msg ticket-msg-staff" : "ticket-msg ticket-msg-user"}
          data-testid="ticket-message"
          title={
            <Space>
              {m.staff ? <Tag color="green">客服</Tag> : <Tag color="blue">{staffView ? "用户" : "我"}</Tag>}
              <Typography.Text type="secondary">{formatTime(m.created_at)}</Typography.Text>
            </Space>
          }
        >
          <Typography.Paragraph style={{ whiteSpace: "pre-wrap", marginBottom: m.attachments.length ? 12 : 0 }}>
            {m.content}
          </Typography.Paragraph>
          {m.attachments.length ? (
            <Image.PreviewGroup>
              <Space wrap>
                {m.attachments.map((a) => (
                  <AttachmentImage key={a.id} file={a} />
                ))}
              </Space>
            </Image.PreviewGroup>
          ) : null}
        </Card>
      ))}
    </Space>
  );
}
