import { Card, Tabs, Typography } from "antd";
import { Link } from "react-router";
import { CodeBlock } from "@/components/CodeBlock";

const LAYOUTS = [
  {
    key: "windows",
    label: "Windows",
    dir: "C:\\frp",
    tree: "C:\\frp\\frpc.exe\nC:\\frp\\frpc_t12.toml\nC:\\frp\\certs\\www.example.com\\fullchain.pem\nC:\\frp\\certs\\www.example.com\\privkey.pem",
    run: "cd C:\\frp\n.\\frpc.exe -c .\\frpc_t12.toml",
  },
  {
    key: "macos",
    label: "macOS",
    dir: "~/frp",
    tree: "~/frp/frpc\n~/frp/frpc_t12.toml\n~/frp/certs/www.example.com/fullchain.pem\n~/frp/certs/www.example.com/privkey.pem",
    run: "cd ~/frp && chmod 600 certs/*/privkey.pem && ./frpc -c ./frpc_t12.toml",
  },
  {
    key: "linux",
    label: "Linux",
    dir: "/opt/frp",
    tree: "/opt/frp/frpc\n/opt/frp/frpc_t12.toml\n/opt/frp/certs/www.example.com/fullchain.pem\n/opt/frp/certs/www.example.com/privkey.pem",
    run: "cd /opt/frp && chmod 600 certs/*/privkey.pem && ./frpc -c ./frpc_t12.toml",
  },
] as const;

/** Where the certificate files go so that the generated frpc config finds them. */
export function FrpcCertHelp() {
  return (
    <Card title="在 frpc 中使用证书">
      <Typography.Paragraph>
        为 HTTPS 隧道的自定义域名准备好证书后，<Link to="/tun/list">隧道列表</Link> 中生成的 frpc 配置会启用 frpc 的{" "}
        <Typography.Text code>https2http</Typography.Text> 插件：由 frpc 用你的证书终止 HTTPS，再以 HTTP
        转发到本地服务。 如果本地服务本身就是 HTTPS，把配置中的{" "}
        <Typography.Text code>type = "https2http"</Typography.Text> 改为{" "}
        <Typography.Text code>"https2https"</Typography.Text>。
      </Typography.Paragraph>
      <Typography.Paragraph>
        配置中的证书路径是相对路径 <Typography.Text code>./certs/&lt;域名&gt;/fullchain.pem</Typography.Text> 和{" "}
        <Typography.Text code>./certs/&lt;域名&gt;/privkey.pem</Typography.Text>
        ：下载“完整证书链”和“私钥”，按下面的位置放在 frpc 所在目录，并在该目录中启动 frpc。泛域名 *.example.com
        的目录名为 _wildcard.example.com（Windows 的文件名不能含 *）。证书续期后请重新下载并替换这两个文件，再重启
        frpc。私钥只能由你本人下载，请妥善保管。
      </Typography.Paragraph>
      <Tabs
        items={LAYOUTS.map((l) => ({
          key: l.key,
          label: l.label,
          children: (
            <>
              <CodeBlock code={l.tree} label={`${l.label} 文件位置（以 ${l.dir} 为例）`} />
              <CodeBlock code={l.run} label={`${l.label} 启动`} />
            </>
          ),
        }))}
      />
    </Card>
  );
}
