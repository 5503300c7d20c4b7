import type { HomeConfigRow, UserHome } from "@burrow/contract";
import { RiDoubleQuotesL, RiNotification3Line } from "@remixicon/react";
import { Card, Carousel, Space, Typography } from "antd";
import { Link } from "react-router";
import { Markdown } from "@/components/Markdown";
import { safeHref } from "@/lib/markdown";

/** A title colour only when it is a hex colour (the server checks too; this keeps any other value out of style). */
export function titleColor(c: string): string | undefined {
  return /^#([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/.test(c) ? c : undefined;
}

function Title({ row }: { row: HomeConfigRow }) {
  const style = { color: titleColor(row.title_color) };
  const href = row.link ? safeHref(row.link) : undefined;
  if (!href) return <span style={style}>{row.title}</span>;
  return href.startsWith("/") ? (
    <Link to={href} style={style}>
      {row.title}
    </Link>
  ) : (
    <a href={href} target="_blank" rel="noopener noreferrer nofollow" style={style}>
      {row.title}
    </a>
  );
}

/** The dashboard's carousel, notices and quote; the setter's preview renders the same component. */
export function HomeContent({ home }: { home: UserHome }) {
  const { carousel, notices, quote } = home;
  if (!carousel.length && !notices.length && !quote) return null;
  return (
    <Space orientation="vertical" size={16} style={{ width: "100%" }} className="home-content">
      {carousel.length ? (
        <Card className="home-carousel" styles={{ body: { padding: 0 } }}>
          <Carousel autoplay={carousel.length > 1} dots={carousel.length > 1}>
            {carousel.map((c) => (
              <div key={c.id}>
                <div className="home-slide">
                  <Typography.Title level={4} style={{ margin: 0 }}>
                    <Title row={c} />
                  </Typography.Title>
                  {c.content ? <Markdown source={c.content} /> : null}
                </div>
              </div>
            ))}
          </Carousel>
        </Card>
      ) : null}
      {notices.length ? (
        <Card
          title={
            <Space size={6}>
              <RiNotification3Line size={16} />
              公告
            </Space>
          }
          className="home-notices"
        >
          {notices.map((n) => (
            <section key={n.id} className="home-notice" aria-label={n.title}>
              <Typography.Text strong>
                <Title row={n} />
              </Typography.Text>
              {n.content ? <Markdown source={n.content} /> : null}
            </section>
          ))}
        </Card>
      ) : null}
      {quote ? (
        <Card className="home-quote" size="small">
          <Space size={8} align="start">
            <RiDoubleQuotesL size={18} aria-hidden />
            <span>
              <Typography.Text strong>
                <Title row={quote} />
              </Typography.Text>
              {quote.content ? (
                <>
                  {" "}
                  <Markdown source={quote.content} compact />
                </>
              ) : null}
            </span>
          </Space>
        </Card>
      ) : null}
    </Space>
  );
}
