import { Space, Typography } from "antd";
import type { ReactNode } from "react";

/** A value set by the server's environment: the value, then the variables that change it. */
export function FromEnv({ children, vars }: { children: ReactNode; vars: string[] }) {
  return (
    <Space orientation="vertical" size={0}>
      <span>{children}</span>
      <Typography.Text type="secondary">环境变量 {vars.join("、")}（修改后重启生效）</Typography.Text>
    </Space>
  );
}
