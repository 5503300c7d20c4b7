import { Space } from "antd";
import type { ReactNode } from "react";
import { CopyButton } from "./CopyButton";

export interface CodeBlockProps {
  /** the text shown and copied */
  code: string;
  /** accessible name of the block and its copy button ("frps.toml" → "复制 frps.toml") */
  label: string;
  /** more buttons next to the copy button */
  extra?: ReactNode;
}

/** A preformatted, scrollable block of config or shell text with a copy button. */
export function CodeBlock({ code, label, extra }: CodeBlockProps) {
  return (
    <section className="code-block" aria-label={label}>
      <Space className="code-block-actions" size={8}>
        <CopyButton size="small" text={code} aria-label={`复制 ${label}`}>
          复制
        </CopyButton>
        {extra}
      </Space>
      <pre>{code}</pre>
    </section>
  );
}
