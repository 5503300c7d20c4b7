import type { LogExplanation } from "@burrow/contract";
import { Card, Space, Tag, Typography } from "antd";
import type { ReactNode } from "react";
import { Markdown } from "@/components/Markdown";
import { ExplanationList } from "./ExplanationList";

/** Console paths the assistant names in its answer (/tun/list, /doc/errors#login…), made links. */
const CONSOLE_PATH =
  /(^|[\s（(：:，,、])(\/(?:tun|doc|purchase|epay|download|help|account|traffic|dashboard)(?:\/[\w-]+)*(?:#[\w-]+)?)/g;
export const linkConsolePaths = (md: string): string => md.replace(CONSOLE_PATH, "$1[$2]($2)");

export interface ChatBubbleProps {
  author: "user" | "assistant";
  content: string;
  explanations?: LogExplanation[];
  /** shown after the text (the typing cursor, an error) */
  footer?: ReactNode;
}

/** One message: the customer's as plain text with its log reading, the assistant's as markdown. */
export function ChatBubble({ author, content, explanations = [], footer }: ChatBubbleProps) {
  return (
    <Card
      size="small"
      className={`assistant-msg assistant-msg-${author}`}
      data-testid={`assistant-${author}`}
      title={author === "user" ? <Tag color="blue">我</Tag> : <Tag color="green">frpc 助手</Tag>}
    >
      <Space orientation="vertical" size={8} style={{ width: "100%" }}>
        {author === "user" ? (
          <Typography.Paragraph style={{ whiteSpace: "pre-wrap", marginBottom: 0 }}>{content}</Typography.Paragraph>
        ) : content ? (
          <Markdown source={linkConsolePaths(content)} />
        ) : null}
        {footer}
        <ExplanationList items={explanations} />
      </Space>
    </Card>
  );
}
