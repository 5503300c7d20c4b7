import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { MemoryRouter } from "react-router";
import { describe, expect, it } from "vitest";
import { Markdown } from "@/components/Markdown";
import { type Inline, parseInline, parseMarkdown, safeHref, slugify } from "./markdown";

const html = (source: string, compact = false) =>
  renderToStaticMarkup(createElement(MemoryRouter, null, createElement(Markdown, { source, compact })));

const links = (nodes: Inline[]): string[] =>
  nodes.flatMap((n) => (n.t === "link" ? [n.href, ...links(n.c)] : n.t === "strong" || n.t === "em" ? links(n.c) : []));

describe("safe markdown", () => {
  it("renders bold, italic, code and http(s) or site links", () => {
    const out = html("**粗体** *斜体* _也斜_ `a<b>` [文档](/doc/faq) [官网](https://example.com/a?b=1)");
    expect(out).toContain("<strong>粗体</strong>");
    expect(out).toContain("<em>斜体</em>");
    expect(out).toContain("<em>也斜</em>");
    expect(out).toContain("<code>a&lt;b&gt;</code>");
    expect(out).toContain('href="/doc/faq"');
    expect(out).toContain('href="https://example.com/a?b=1" target="_blank" rel="noopener noreferrer nofollow"');
  });

  it("never emits HTML from the input: tags are text", () => {
    const out = html('<script>alert(1)</script><img src=x onerror="alert(1)"> <a href="javascript:x">a</a>');
    expect(out).not.toContain("<script");
    expect(out).not.toContain("<img");
    expect(out).not.toContain('<a href="javascript');
    expect(out).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
  });

  it("refuses javascript:, data:, vbscript:, protocol-relative and odd links, keeping the label", () => {
    for (const href of [
      "javascript:alert(1)",
      "JavaScript:alert(1)",
      " javascript:alert(1)",
      "java\tscript:alert(1)",
      "data:text/html;base64,PHNjcmlwdD4=",
      "vbscript:msgbox(1)",
      "//evil.example/x",
      "/\\evil.example",
      "ftp://example.com",
      "mailto:a@b.c",
    ]) {
      const nodes = parseInline(`[点我](${href})`);
      expect(links(nodes), href).toEqual([]);
      expect(html(`[点我](${href})`)).not.toContain("href");
      expect(safeHref(href), href).toBeUndefined();
    }
    expect(parseInline("[点我](javascript:void0)")).toEqual([{ t: "text", v: "点我" }]);
  });

  it("parses blocks with anchors, lists, tables and code fences", () => {
    const blocks = parseMarkdown(
      '# 开始使用\n\n## 作为服务运行 {#service}\n\n- 一\n- **二**\n\n1. 甲\n2. 乙\n\n| 列 | 说明 |\n|---|---|\n| a | b |\n\n```toml\nserverAddr = "x"\n```\n\n段落\n第二行',
    );
    expect(blocks.map((b) => b.t)).toEqual(["heading", "heading", "list", "list", "table", "code", "para"]);
    expect(blocks[0]).toMatchObject({ id: "开始使用", level: 1 });
    expect(blocks[1]).toMatchObject({ id: "service", text: "作为服务运行" });
    expect(blocks[5]).toMatchObject({ lang: "toml", v: 'serverAddr = "x"' });
    expect(slugify("TCP / UDP 隧道")).toBe("tcp-udp-隧道");
  });

  it("keeps a notice on one line when compact", () => {
    expect(html("今晚 **维护**", true)).toBe(
      '<div class="md"><span class="md-inline">今晚 <strong>维护</strong></span></div>',
    );
  });
});
