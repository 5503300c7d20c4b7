import fs from "node:fs";
import path from "node:path";

/**
 * Burrow's customer documentation, the same markdown files the web's /doc pages are built from
 * (packages/contract/src/docs, imported by apps/web/src/features/docs/docs.ts): read once, cut at
 * the headings, and searched for the sections that fit a question.
 */
export const DOCS_DIR = path.resolve(import.meta.dirname, "../../../../../packages/contract/src/docs");

export interface DocSection {
  /** the console route of the section (/doc/<slug>#<id>) */
  href: string;
  page: string;
  title: string;
  text: string;
}

const HEADING = /^(#{1,6})\s+(.*?)\s*(?:\{#([\w-]+)\})?\s*$/;

/** Cuts one page (file name NN-<slug>.md) into its sections. */
export function splitDoc(file: string, src: string): DocSection[] {
  const slug = path.basename(file, ".md").replace(/^\d+-/, "");
  const sections: DocSection[] = [];
  let page = slug;
  let cur: DocSection | undefined;
  let inCode = false;
  for (const line of src.split(/\r?\n/)) {
    if (line.startsWith("```")) inCode = !inCode;
    const h = inCode ? null : HEADING.exec(line);
    if (h) {
      if (h[1].length === 1) page = h[2];
      cur = { href: `/doc/${slug}${h[1].length > 1 && h[3] ? `#${h[3]}` : ""}`, page, title: h[2], text: "" };
      sections.push(cur);
    } else if (cur) cur.text += `${line}\n`;
    else {
      cur = { href: `/doc/${slug}`, page, title: page, text: `${line}\n` };
      sections.push(cur);
    }
  }
  return sections.map((s) => ({ ...s, text: s.text.trim() })).filter((s) => s.text);
}

let cached: DocSection[] | undefined;

/** Every section of every page, in file order (read once). */
export function docSections(): DocSection[] {
  cached ??= fs
    .readdirSync(DOCS_DIR)
    .filter((f) => f.endsWith(".md"))
    .sort()
    .flatMap((f) => splitDoc(f, fs.readFileSync(path.join(DOCS_DIR, f), "utf8")));
  return cached;
}

/** Words and CJK character pairs of a text: what two texts share says how close they are. */
function terms(text: string): Set<string> {
  const out = new Set<string>();
  const lower = text.toLowerCase();
  for (const w of lower.match(/[a-z0-9_.-]{3,}/g) ?? []) out.add(w);
  for (const run of lower.match(/[\u4e00-\u9fff]+/g) ?? [])
    for (let i = 0; i + 1 < run.length; i++) out.add(run.slice(i, i + 2));
  return out;
}

/**
 * The sections closest to a question, best first, within a character budget (the prompt stays
 * small whatever the docs grow to).
 */
export function relevantSections(question: string, limit = 4, budget = 6000): DocSection[] {
  const q = terms(question);
  if (!q.size) return [];
  const scored = docSections()
    .map((s) => {
      const title = terms(`${s.page} ${s.title}`);
      const body = terms(s.text);
      let score = 0;
      for (const t of q) score += (title.has(t) ? 2 : 0) + (body.has(t) ? 1 : 0);
      return { s, score };
    })
    .filter((x) => x.score > 0)
    .sort((a, b) => b.score - a.score);
  const out: DocSection[] = [];
  let used = 0;
  for (const { s } of scored) {
    if (out.length >= limit) break;
    const text = s.text.slice(0, 2500);
    if (used + text.length > budget) continue;
    used += text.length;
    out.push({ ...s, text });
  }
  return out;
}
