import { ApiTokenScopes } from "@burrow/contract";
import { describe, expect, it } from "vitest";
import type { Inline } from "@/lib/markdown";
import { curlExample, tokenEndpoints } from "./api-scopes";
import { docs, searchDocs } from "./docs";

const links = (nodes: Inline[]): string[] =>
  nodes.flatMap((n) => (n.t === "link" ? [n.href] : n.t === "strong" || n.t === "em" ? links(n.c) : []));

describe("customer documentation", () => {
  it("has every topic, each page titled", () => {
    expect(docs.map((d) => d.slug)).toEqual([
      "getting-started",
      "windows",
      "macos",
      "linux",
      "openwrt",
      "docker",
      "tunnels",
      "custom-domains",
      "errors",
      "faq",
      "api",
    ]);
    for (const d of docs) expect(d.title, d.slug).not.toBe(d.slug);
    const tunnels = docs.find((d) => d.slug === "tunnels");
    expect(tunnels?.toc.map((h) => h.id)).toEqual(expect.arrayContaining(["tcp", "udp", "http", "https"]));
    for (const slug of ["windows", "macos", "linux", "openwrt"])
      expect(
        docs.find((d) => d.slug === slug)?.toc.map((h) => h.id),
        slug,
      ).toContain("service");
  });

  it("links only to pages and sections that exist", () => {
    const anchors = new Map(docs.map((d) => [d.slug, new Set(d.toc.map((h) => h.id))]));
    for (const d of docs)
      for (const b of d.blocks) {
        const inl =
          b.t === "para" || b.t === "quote" || b.t === "heading"
            ? b.c
            : b.t === "list"
              ? b.items.flat()
              : b.t === "table"
                ? [...b.head, ...b.rows.flat()].flat()
                : [];
        for (const href of links(inl)) {
          const m = /^\/doc\/([\w-]+)(?:#([\w-]+))?$/.exec(href);
          if (!m) continue;
          expect(anchors.has(m[1]), `${d.slug}: ${href}`).toBe(true);
          if (m[2]) expect(anchors.get(m[1])?.has(m[2]), `${d.slug}: ${href}`).toBe(true);
        }
      }
  });

  it("shows TOML (frp ≥ 0.52) configuration, never the old INI", () => {
    const all = docs.flatMap((d) => d.blocks).filter((b) => b.t === "code");
    const toml = all.filter((b) => b.t === "code" && b.lang === "toml");
    expect(toml.length).toBeGreaterThan(3);
    for (const b of all) if (b.t === "code") expect(b.v).not.toMatch(/^\[common\]/m);
  });

  it("lists every endpoint a token may reach with its scope, from the contract", () => {
    const rows = tokenEndpoints();
    expect(rows).toContainEqual(
      expect.objectContaining({ scope: "tunnels:read", method: "GET", path: "/api/user/tun" }),
    );
    expect(rows).toContainEqual(
      expect.objectContaining({ scope: "tunnels:write", method: "POST", path: "/api/user/tun" }),
    );
    expect(new Set(rows.map((r) => r.scope))).toEqual(new Set(ApiTokenScopes));
    // Nothing of the operators', no purchase, no token management, no credentials.
    const forbidden = rows.filter(
      (r) =>
        /^\/api\/(super|user\/(apiToken|password|phone|aff|giftCard))/.test(r.path) ||
        (r.path.startsWith("/api/user/order") && r.method !== "GET"),
    );
    expect(forbidden).toEqual([]);
    expect(curlExample("https://c.example")).toContain('"https://c.example/api/user/tun?page=1&size=10"');
  });

  it("finds sections by every word, titles first", () => {
    const hits = searchDocs(docs, "systemd");
    expect(hits[0]).toMatchObject({ slug: "linux", id: "service" });
    expect(searchDocs(docs, "令牌 重置").length).toBeGreaterThan(0);
    expect(searchDocs(docs, "zzzz-nothing")).toEqual([]);
    expect(searchDocs(docs, "   ")).toEqual([]);
  });
});
