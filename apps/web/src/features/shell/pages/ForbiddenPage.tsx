import { Button, Result } from "antd";
import { useNavigate } from "react-router";

/** /403: the path is outside the user's menu, or the server answered 30004. */
export function ForbiddenPage() {
  const navigate = useNavigate();
  return (
    <main className="standalone-page">
      <Result
        status="403"
        title="403"
        subTitle="抱歉，您无权访问此页面"
        extra={
          <Button type="primary" onClick={() => navigate("/dashboard")}>
            返回控制台
          </Button>
        }
      />
    </main>
  );
}
