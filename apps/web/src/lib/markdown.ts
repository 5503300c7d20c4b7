import { isSafeHref } from "@burrow/contract";

/**
 * A small, safe markdown subset shared by the home content (operators' notices) and the /doc pages.
 * It parses to a tree of plain strings that components/Markdown.tsx renders as React elements, so
 * every character of the input is text (React escapes it): raw HTML stays visible as text, and a
 * link is kept only when its target is http(s) or site-relative (isSafeHref); anything else
 * (javascript:, data:, //host) is shown as its label, unlinked.
 *
 * Blocks: # to #### headings (an explicit anchor with a trailing `{#id}`), paragraphs, - and 1. lists,
 * > quotes, ``` code fences, | tables |, ---. Inline: `code`, **bold**, *italic* / _italic_, [label](href).
 */

export type Inline =
  | { t: "text"; v: string }
  | { t: "code"; v: string }
  | { t: "strong"; c: Inline[] }
  | { t: "em"; c: Inline[] }
  | { t: "link"; href: string; c: Inline[] };

export type Block =
  | { t: "heading"; level: number; id: string; text: string; c: Inline[] }
  | { t: "para"; c: Inline[] }
  | { t: "list"; ordered: boolean; items: Inline[][] }
  | { t: "quote"; c: Inline[] }
  | { t: "code"; lang: string; v: string }
  | { t: "table"; head: Inline[][]; rows: Inline[][][] }
  | { t: "hr" };

/** A heading's anchor: lower-case letters, digits and CJK kept, everything else folded to "-". */
export function slugify(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, "-")
    .replace(/^-+|-+$/g, "");
}

/** The link target if it may be followed, else undefined. */
export function safeHref(href: string): string | undefined {
  const h = href.trim();
  if (h.startsWith("#")) return /^#[\p{L}\p{N}_-]*$/u.test(h) ? h : undefined;
  return isSafeHref(h) ? h : undefined;
}

// Order matters: code spans first (nothing inside them is markup), then links, then emphasis.
const INLINE =
  /`([^`]+)`|\[([^\]]+)\]\(([^)\s]+)\)|\*\*(.+?)\*\*|\*([^*\s](?:[^*]*[^*\s])?)\*|(?<![\p{L}\p{N}])_([^_\s](?:[^_]*[^_\s])?)_(?![\p{L}\p{N}])/gu;

/** Parses inline markup; unknown or unsafe markup stays as text. */
export function parseInline(src: string): Inline[] {
  const out: Inline[] = [];
  const text = (v: string) => {
    if (!v) return;
    const last = out[out.length - 1];
    if (last?.t === "text") last.v += v;
    else out.push({ t: "text", v });
  };
  let at = 0;
  for (const m of src.matchAll(INLINE)) {
    text(src.slice(at, m.index));
    at = (m.index ?? 0) + m[0].length;
    if (m[1] !== undefined) out.push({ t: "code", v: m[1] });
    else if (m[2] !== undefined) {
      const href = safeHref(m[3]);
      if (href) out.push({ t: "link", href, c: parseInline(m[2]) });
      else for (const n of parseInline(m[2])) n.t === "text" ? text(n.v) : out.push(n);
    } else if (m[4] !== undefined) out.push({ t: "strong", c: parseInline(m[4]) });
    else out.push({ t: "em", c: parseInline(m[5] ?? m[6]) });
  }
  text(src.slice(at));
  return out;
}

/** The plain text of inline nodes (for anchors, search and the table of contents). */
export function plainText(nodes: Inline[]): string {
  return nodes.map((n) => (n.t === "text" || n.t === "code" ? n.v : plainText(n.c))).join("");
}

const cells = (line: string) =>
  line
    .trim()
    .replace(/^\||\|$/g, "")
    .split("|")
    .map((c) => parseInline(c.trim()));

/** Parses a document into blocks. */
export function parseMarkdown(src: string): Block[] {
  const lines = src.replace(/\r\n?/g, "\n").split("\n");
  const blocks: Block[] = [];
  const used = new Map<string, number>();
  let i = 0;
  const isBlockStart = (l: string) => /^(#{1,4}\s|```|>\s?|\s*[-*]\s|\s*\d+\.\s|\||---+\s*$)/.test(l);
  while (i < lines.length) {
    const line = lines[i];
    if (!line.trim()) {
      i++;
      continue;
    }
    const fence = /^```\s*([\w-]*)\s*$/.exec(line);
    if (fence) {
      const body: string[] = [];
      i++;
      while (i < lines.length && !/^```\s*$/.test(lines[i])) body.push(lines[i++]);
      i++;
      blocks.push({ t: "code", lang: fence[1], v: body.join("\n") });
      continue;
    }
    const h = /^(#{1,4})\s+(.*?)(?:\s+\{#([\w-]+)\})?\s*$/.exec(line);
    if (h) {
      const c = parseInline(h[2]);
      const text = plainText(c);
      let id = h[3] ?? (slugify(text) || "section");
      const n = used.get(id) ?? 0;
      used.set(id, n + 1);
      if (n) id = `${id}-${n}`;
      blocks.push({ t: "heading", level: h[1].length, id, text, c });
      i++;
      continue;
    }
    if (/^---+\s*$/.test(line)) {
      blocks.push({ t: "hr" });
      i++;
      continue;
    }
    if (/^\|/.test(line)) {
      const rows: string[] = [];
      while (i < lines.length && /^\|/.test(lines[i])) rows.push(lines[i++]);
      const body = rows.filter((r, k) => !(k === 1 && /^\|[\s:|-]+\|?\s*$/.test(r)));
      blocks.push({ t: "table", head: cells(body[0]), rows: body.slice(1).map(cells) });
      continue;
    }
    if (/^>\s?/.test(line)) {
      const body: string[] = [];
      while (i < lines.length && /^>\s?/.test(lines[i])) body.push(lines[i++].replace(/^>\s?/, ""));
      blocks.push({ t: "quote", c: parseInline(body.join(" ")) });
      continue;
    }
    const item = /^\s*([-*]|\d+\.)\s+(.*)$/.exec(line);
    if (item) {
      const ordered = /\d/.test(item[1]);
      const items: string[] = [];
      while (i < lines.length) {
        const m = /^\s*([-*]|\d+\.)\s+(.*)$/.exec(lines[i]);
        if (m && /\d/.test(m[1]) === ordered) items.push(m[2]);
        else if (items.length && /^\s{2,}\S/.test(lines[i])) items[items.length - 1] += ` ${lines[i].trim()}`;
        else break;
        i++;
      }
      blocks.push({ t: "list", ordered, items: items.map(parseInline) });
      continue;
    }
    const para: string[] = [];
    while (i < lines.length && lines[i].trim() && (!para.length || !isBlockStart(lines[i]))) para.push(lines[i++]);
    blocks.push({ t: "para", c: parseInline(para.join("\n")) });
  }
  return blocks;
}

/** The plain text of a block (for search). */
export function blockText(b: Block): string {
  switch (b.t) {
    case "heading":
      return b.text;
    case "para":
    case "quote":
      return plainText(b.c);
    case "list":
      return b.items.map(plainText).join("\n");
    case "code":
      return b.v;
    case "table":
      return [b.head, ...b.rows].map((r) => r.map(plainText).join(" ")).join("\n");
    case "hr":
      return "";
  }
}
