// biome-ignore-all lint/suspicious/noArrayIndexKey: the tree is parsed from a fixed source and never reordered; position is the identity.
import { Typography } from "antd";
import { Fragment, type ReactNode, useMemo } from "react";
import { Link } from "react-router";
import { type Block, type Inline, parseMarkdown } from "@/lib/markdown";
import { CodeBlock } from "./CodeBlock";

function renderInline(nodes: Inline[]): ReactNode[] {
  return nodes.map((n, k) => {
    switch (n.t) {
      case "text":
        return <Fragment key={k}>{n.v}</Fragment>;
      case "code":
        return <code key={k}>{n.v}</code>;
      case "strong":
        return <strong key={k}>{renderInline(n.c)}</strong>;
      case "em":
        return <em key={k}>{renderInline(n.c)}</em>;
      case "link":
        // Site paths stay in the app; outside links open apart, without the opener or a referrer.
        return n.href.startsWith("/") ? (
          <Link key={k} to={n.href}>
            {renderInline(n.c)}
          </Link>
        ) : n.href.startsWith("#") ? (
          <a key={k} href={n.href}>
            {renderInline(n.c)}
          </a>
        ) : (
          <a key={k} href={n.href} target="_blank" rel="noopener noreferrer nofollow">
            {renderInline(n.c)}
          </a>
        );
    }
    return null;
  });
}

function renderBlock(b: Block, k: number, compact: boolean): ReactNode {
  switch (b.t) {
    case "heading": {
      const level = Math.min(5, b.level + 1) as 2 | 3 | 4 | 5;
      return (
        <Typography.Title key={k} level={level} id={b.id} className="md-heading">
          {renderInline(b.c)}
        </Typography.Title>
      );
    }
    case "para":
      return compact ? (
        <span key={k} className="md-inline">
          {renderInline(b.c)}
        </span>
      ) : (
        <Typography.Paragraph key={k} style={{ whiteSpace: "pre-line" }}>
          {renderInline(b.c)}
        </Typography.Paragraph>
      );
    case "list": {
      const items = b.items.map((it, j) => <li key={j}>{renderInline(it)}</li>);
      return b.ordered ? <ol key={k}>{items}</ol> : <ul key={k}>{items}</ul>;
    }
    case "quote":
      return <blockquote key={k}>{renderInline(b.c)}</blockquote>;
    case "code":
      return <CodeBlock key={k} code={b.v} label={b.lang ? `${b.lang} 代码` : "代码"} />;
    case "table":
      return (
        <div key={k} className="md-table">
          <table>
            <thead>
              <tr>
                {b.head.map((c, j) => (
                  <th key={j}>{renderInline(c)}</th>
                ))}
              </tr>
            </thead>
            <tbody>
              {b.rows.map((r, j) => (
                <tr key={j}>
                  {r.map((c, m) => (
                    <td key={m}>{renderInline(c)}</td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      );
    case "hr":
      return <hr key={k} />;
  }
  return null;
}

/**
 * Renders the safe markdown subset (lib/markdown.ts) as React elements: never raw HTML.
 * `compact` renders paragraphs inline (a notice or a quote in one line).
 */
export function Markdown({
  source,
  blocks,
  compact = false,
}: {
  source?: string;
  blocks?: Block[];
  compact?: boolean;
}) {
  const parsed = useMemo(() => blocks ?? parseMarkdown(source ?? ""), [blocks, source]);
  return <div className="md">{parsed.map((b, k) => renderBlock(b, k, compact))}</div>;
}
