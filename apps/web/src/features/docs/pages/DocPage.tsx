import { RiSearchLine } from "@remixicon/react";
import { Card, Col, Empty, Input, Row, Typography } from "antd";
import { useEffect, useMemo, useState } from "react";
import { Link, Navigate, useLocation, useParams } from "react-router";
import { Markdown } from "@/components/Markdown";
import { PageContainer } from "@/components/PageContainer";
import { ApiScopeReference } from "../components/ApiScopeReference";
import { docHref, docs, searchDocs } from "../docs";

/** /doc and /doc/:slug: the customer documentation with a table of contents and search. */
export function DocPage() {
  const { slug } = useParams();
  const { hash } = useLocation();
  const [query, setQuery] = useState("");
  const page = slug ? docs.find((d) => d.slug === slug) : docs[0];
  const hits = useMemo(() => searchDocs(docs, query), [query]);

  // Scroll to the section named in the URL once the page is drawn (again when the page changes).
  // biome-ignore lint/correctness/useExhaustiveDependencies: `page` is the trigger, not an input
  useEffect(() => {
    const id = decodeURIComponent(hash.slice(1));
    if (id) document.getElementById(id)?.scrollIntoView();
    else window.scrollTo({ top: 0 });
  }, [hash, page]);

  if (!page) return <Navigate to="/doc" replace />;
  return (
    <PageContainer title="使用文档">
      <Row gutter={[16, 16]}>
        <Col xs={24} lg={7} xl={6}>
          <Card className="doc-nav">
            <Input
              allowClear
              prefix={<RiSearchLine size={16} />}
              placeholder="搜索文档"
              aria-label="搜索文档"
              value={query}
              onChange={(e) => setQuery(e.target.value)}
            />
            {query.trim() ? (
              <section className="doc-hits" aria-label="搜索结果">
                {hits.length ? (
                  hits.map((h) => (
                    <Link
                      key={`${h.slug}#${h.id}`}
                      to={docHref(h.slug, h.id)}
                      className="doc-hit"
                      onClick={() => setQuery("")}
                    >
                      <Typography.Text strong>
                        {h.page}
                        {h.id ? ` · ${h.title}` : ""}
                      </Typography.Text>
                      <Typography.Text type="secondary" className="doc-hit-snippet">
                        {h.snippet}
                      </Typography.Text>
                    </Link>
                  ))
                ) : (
                  <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="没有找到相关内容" />
                )}
              </section>
            ) : (
              <nav className="doc-toc" aria-label="文档目录">
                <ul>
                  {docs.map((d) => (
                    <li key={d.slug}>
                      <Link to={docHref(d.slug)} aria-current={d.slug === page.slug ? "page" : undefined}>
                        {d.title}
                      </Link>
                      {d.slug === page.slug && d.toc.length ? (
                        <ul>
                          {d.toc.map((h) => (
                            <li key={h.id} className={h.level === 3 ? "doc-toc-sub" : undefined}>
                              <Link to={docHref(d.slug, h.id)}>{h.text}</Link>
                            </li>
                          ))}
                        </ul>
                      ) : null}
                    </li>
                  ))}
                </ul>
              </nav>
            )}
          </Card>
        </Col>
        <Col xs={24} lg={17} xl={18}>
          <Card className="doc-body">
            <article aria-label={page.title}>
              <Markdown blocks={page.blocks} />
              {/* generated from the contract, so it cannot drift from the endpoints */}
              {page.slug === "api" ? <ApiScopeReference /> : null}
            </article>
          </Card>
        </Col>
      </Row>
    </PageContainer>
  );
}
