import type { UseQueryResult } from "@tanstack/react-query";
import { Button, Card, Result } from "antd";
import type { ReactNode } from "react";
import { PageContainer } from "@/components/PageContainer";
import { isMissing } from "../store.api";

/**
 * A checkout page's states before what it sells is there: 404 (a bad address, or the server does
 * not know it), 加载失败 with 重试, or a loading card, each under `title` with `back`; then the
 * page `children` draws with the data. The query should be silent: the page says what went wrong.
 */
export function LoadedPage<T>({
  title,
  back,
  valid,
  query,
  notFound,
  children,
}: {
  title: string;
  back: ReactNode;
  /** whether the address names something at all (else no query is made) */
  valid: boolean;
  query: UseQueryResult<T>;
  notFound: { title: string; subTitle: string };
  children: (data: T) => ReactNode;
}) {
  const { data, isPending, error, refetch } = query;
  if (!valid || isMissing(error)) {
    return (
      <PageContainer title={title} extra={back}>
        <Result status="404" title={notFound.title} subTitle={notFound.subTitle} />
      </PageContainer>
    );
  }
  if (error) {
    return (
      <PageContainer title={title} extra={back}>
        <Result
          status="error"
          title="加载失败"
          subTitle={error.message}
          extra={
            <Button type="primary" onClick={() => void refetch()}>
              重试
            </Button>
          }
        />
      </PageContainer>
    );
  }
  if (isPending || !data) {
    return (
      <PageContainer title={title} extra={back}>
        <Card loading />
      </PageContainer>
    );
  }
  return children(data);
}
