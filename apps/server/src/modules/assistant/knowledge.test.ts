import fs from "node:fs";
import { describe, expect, it } from "vitest";
import { DOCS_DIR, docSections, relevantSections, splitDoc } from "./knowledge";

describe("assistant knowledge: the /doc markdown", () => {
  it("reads the same files the web's /doc pages are built from", () => {
    const files = fs.readdirSync(DOCS_DIR).filter((f) => f.endsWith(".md"));
    expect(files.length).toBeGreaterThanOrEqual(10);
    const hrefs = new Set(docSections().map((s) => s.href.split("#")[0]));
    for (const f of files) expect(hrefs).toContain(`/doc/${f.replace(/\.md$/, "").replace(/^\d+-/, "")}`);
  });

  it("cuts a page at its headings, keeping anchors and skipping code fences", () => {
    const s = splitDoc(
      "09-errors.md",
      "# 读懂错误\n\n开头\n\n## 登录失败 {#login}\n\n```\n# not a heading\n```\n文字\n",
    );
    expect(s.map((x) => [x.href, x.title])).toEqual([
      ["/doc/errors", "读懂错误"],
      ["/doc/errors#login", "登录失败"],
    ]);
    expect(s[1].text).toContain("# not a heading");
  });

  it("finds the sections that fit a question, within the budget", () => {
    const hits = relevantSections("登录失败 访问令牌无效 怎么办");
    expect(hits.length).toBeGreaterThan(0);
    expect(hits.some((h) => h.href.startsWith("/doc/errors"))).toBe(true);
    expect(hits.reduce((n, h) => n + h.text.length, 0)).toBeLessThanOrEqual(6000);
    expect(relevantSections("")).toEqual([]);
  });
});
