import { Button } from "antd";
import { isRouteErrorResponse, useRouteError } from "react-router";

/**
 * Shown when a route throws while loading or rendering; a failed chunk load only gets here after the
 * one automatic reload (lib/chunk-reload.ts) did not help. Deliberately light (no antd Result and its
 * illustrations): it ships in the entry chunk.
 */
export function RouteErrorPage() {
  const error = useRouteError();
  const detail = isRouteErrorResponse(error)
    ? `${error.status} ${error.statusText}`
    : error instanceof Error
      ? error.message
      : undefined;
  return (
    <main className="standalone-page">
      <div className="route-error" role="alert">
        <h1>页面加载失败</h1>
        <p>{detail ? `请刷新页面重试（${detail}）` : "请刷新页面重试"}</p>
        <Button type="primary" onClick={() => window.location.reload()}>
          刷新页面
        </Button>
      </div>
    </main>
  );
}
