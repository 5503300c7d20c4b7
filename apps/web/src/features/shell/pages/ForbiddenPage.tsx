import { Result } from "antd";
import { LinkButton } from "@/components/LinkButton";

/** /403: the path is outside the user's menu, or the server answered 30004. */
export function ForbiddenPage() {
  return (
    <main className="standalone-page">
      <Result
        status="403"
        title="403"
        subTitle="抱歉，您无权访问此页面"
        extra={
          <LinkButton type="primary" to="/dashboard">
            返回控制台
          </LinkButton>
        }
      />
    </main>
  );
}
