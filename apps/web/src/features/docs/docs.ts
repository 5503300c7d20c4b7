import { type Block, blockText, parseMarkdown } from "@/lib/markdown";

/** One documentation page: packages/contract/src/docs/NN-<slug>.md, titled by its first heading, in file-name order. */
export interface DocPage {
  slug: string;
  title: string;
  blocks: Block[];
  /** second- and third-level headings, for the table of contents */
  toc: { id: string; text: string; level: number }[];
  /** the page cut at its headings, for search */
  sections: { id: string; title: string; text: string }[];
}

export interface DocHit {
  slug: string;
  page: string;
  id: string;
  title: string;
  snippet: string;
}

/** Builds the pages from file name → markdown source. */
export function buildDocs(files: Record<string, string>): DocPage[] {
  return Object.entries(files)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([file, src]) => {
      const slug = (file.split("/").pop() ?? file).replace(/\.md$/, "").replace(/^\d+-/, "");
      const blocks = parseMarkdown(src);
      const h1 = blocks.find((b) => b.t === "heading" && b.level === 1);
      const title = h1?.t === "heading" ? h1.text : slug;
      const toc: DocPage["toc"] = [];
      const sections: DocPage["sections"] = [{ id: "", title, text: "" }];
      for (const b of blocks) {
        if (b.t === "heading" && b.level > 1) {
          if (b.level <= 3) toc.push({ id: b.id, text: b.text, level: b.level });
          sections.push({ id: b.id, title: b.text, text: "" });
        } else if (!(b.t === "heading" && b.level === 1)) {
          const s = sections[sections.length - 1];
          s.text += `${blockText(b)}\n`;
        }
      }
      return { slug, title, blocks, toc, sections };
    });
}

/** Sections whose title or text holds every word of the query (case-insensitive), titles first. */
export function searchDocs(pages: DocPage[], query: string, limit = 20): DocHit[] {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  if (!words.length) return [];
  const hits: (DocHit & { score: number })[] = [];
  for (const p of pages)
    for (const s of p.sections) {
      const title = s.title.toLowerCase();
      const text = s.text.toLowerCase();
      if (!words.every((w) => title.includes(w) || text.includes(w))) continue;
      const at = text.indexOf(words[0]);
      const snippet =
        at < 0 ? s.text.slice(0, 80) : `${at > 20 ? "…" : ""}${s.text.slice(Math.max(0, at - 20), at + 60)}`;
      hits.push({
        slug: p.slug,
        page: p.title,
        id: s.id,
        title: s.title,
        snippet: snippet.replace(/\s+/g, " ").trim(),
        score: words.filter((w) => title.includes(w)).length,
      });
    }
  return hits
    .sort((a, b) => b.score - a.score)
    .slice(0, limit)
    .map(({ score: _s, ...h }) => h);
}

/**
 * The customer documentation, bundled with the page that shows it. The markdown lives in the
 * contract (packages/contract/src/docs), where the server's assistant reads the same files.
 */
export const docs: DocPage[] = buildDocs(
  import.meta.glob<string>("../../../../../packages/contract/src/docs/*.md", {
    query: "?raw",
    import: "default",
    eager: true,
  }),
);

/** The link to a page (and a section of it). */
export const docHref = (slug: string, id?: string) => `/doc/${slug}${id ? `#${id}` : ""}`;
