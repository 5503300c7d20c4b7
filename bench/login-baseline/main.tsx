// The smallest honest antd sign-in page (issue 15's baseline): ConfigProvider with zh_CN, a Form
// with a phone and a password Input and a submit Button — what any antd console's /login needs at
// the least. bench/bundle-size.ts builds it with the same Vite and React plugin as the web app.
import { Button, ConfigProvider, Form, Input } from "antd";
import zhCN from "antd/locale/zh_CN";
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";

function LoginPage() {
  return (
    <ConfigProvider locale={zhCN}>
      <main style={{ width: 900, margin: "0 auto", padding: 48 }}>
        <h1>登录</h1>
        <Form layout="vertical" size="large" onFinish={() => undefined}>
          <Form.Item name="phone" label="手机号" rules={[{ required: true, message: "请输入手机号" }]}>
            <Input inputMode="numeric" autoComplete="username" maxLength={11} placeholder="请输入手机号" />
          </Form.Item>
          <Form.Item name="password" label="密码" rules={[{ required: true, message: "请输入密码" }]}>
            <Input.Password autoComplete="current-password" placeholder="请输入密码" />
          </Form.Item>
          <Button type="primary" htmlType="submit" block>
            登录
          </Button>
        </Form>
      </main>
    </ConfigProvider>
  );
}

const root = document.getElementById("root");
if (root)
  createRoot(root).render(
    <StrictMode>
      <LoginPage />
    </StrictMode>,
  );
