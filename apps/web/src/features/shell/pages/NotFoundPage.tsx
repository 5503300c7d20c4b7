import { Result } from "antd";
import { LinkButton } from "@/components/LinkButton";
import { getToken } from "@/lib/token";

/** Catch-all: no route matches the path. */
export function NotFoundPage() {
  return (
    <main className="standalone-page">
      <Result
        status="404"
        title="404"
        subTitle="抱歉，您访问的页面不存在"
        extra={
          <LinkButton type="primary" to={getToken() ? "/dashboard" : "/login"}>
            返回首页
          </LinkButton>
        }
      />
    </main>
  );
}
