import { Button, Result } from "antd";
import { useNavigate } from "react-router";
import { getToken } from "@/lib/token";

/** Catch-all: no route matches the path. */
export function NotFoundPage() {
  const navigate = useNavigate();
  return (
    <main className="standalone-page">
      <Result
        status="404"
        title="404"
        subTitle="抱歉，您访问的页面不存在"
        extra={
          <Button type="primary" onClick={() => navigate(getToken() ? "/dashboard" : "/login")}>
            返回首页
          </Button>
        }
      />
    </main>
  );
}
