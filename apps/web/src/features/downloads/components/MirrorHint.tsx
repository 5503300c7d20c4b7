import { useQuery } from "@tanstack/react-query";
import { Alert, Typography } from "antd";
import { userDownloadsQuery } from "../downloads.api";

/** How the console hosts the builds itself, shown while it hosts none. */
export function MirrorHint() {
  const { data } = useQuery(userDownloadsQuery());
  if (!data || data.some((r) => r.mirrored)) return null;
  return (
    <Alert
      type="info"
      showIcon
      className="mirror-hint"
      title="由控制台自行构建并托管客户端"
      description={
        <>
          在控制台所在的服务器上运行 <Typography.Text code>npm run admin -- frp-mirror</Typography.Text>
          （需安装 Go）：从 Go 模块代理构建常见平台的 frpc 与 frps，保存到数据目录，并在此列出带 SHA-256
          的本站下载地址，客户无需访问境外下载站。详见 docs/downloads.md。
        </>
      }
    />
  );
}
