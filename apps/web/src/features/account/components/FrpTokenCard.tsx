import type { UserInfo } from "@burrow/contract";
import { RiEyeLine, RiEyeOffLine, RiFileCopyLine, RiRefreshLine } from "@remixicon/react";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { Button, Card, Popconfirm, Space, Typography } from "antd";
import { useState } from "react";
import { launchKeys } from "@/features/launch/launch.api";
import { copyText } from "@/lib/clipboard";
import { feedback } from "@/lib/feedback";
import { maskSecret } from "@/lib/format";
import { accountKeys, resetFrpToken } from "../account.api";

/** The frp access token frpc sends: masked by default; show, copy, reset (with confirmation). */
export function FrpTokenCard({ token }: { token: string }) {
  const queryClient = useQueryClient();
  const [visible, setVisible] = useState(false);
  const reset = useMutation({
    mutationFn: resetFrpToken,
    onSuccess: ({ frp_token }) => {
      queryClient.setQueryData(accountKeys.info(), (old: UserInfo | undefined) => (old ? { ...old, frp_token } : old));
      // the launch token was bound to the old frp token: the server retired it
      void queryClient.invalidateQueries({ queryKey: launchKeys.all });
      setVisible(true);
      feedback.success("访问密钥已重置，请更新 frpc 配置");
    },
  });

  const copy = async () => {
    if (await copyText(token)) feedback.success("已复制");
    else feedback.error("复制失败，请手动选择复制");
  };

  return (
    <Card title="frp 访问密钥">
      <Typography.Paragraph type="secondary">
        frpc 连接节点时使用此密钥验证身份，请勿泄露。重置后，使用旧密钥的客户端将无法连接。
      </Typography.Paragraph>
      <Typography.Text code className="frp-token" data-testid="frp-token">
        {visible ? token : maskSecret(token)}
      </Typography.Text>
      <Space wrap className="frp-token-actions">
        <Button
          icon={visible ? <RiEyeOffLine size={16} /> : <RiEyeLine size={16} />}
          onClick={() => setVisible((v) => !v)}
        >
          {visible ? "隐藏密钥" : "显示密钥"}
        </Button>
        <Button icon={<RiFileCopyLine size={16} />} onClick={copy}>
          复制密钥
        </Button>
        <Popconfirm
          title="重置访问密钥？"
          description="重置后，使用旧密钥的 frpc 将无法连接；一键启动的启动令牌随之失效，需重新复制安装命令。"
          okText="重置"
          cancelText="取消"
          okButtonProps={{ danger: true }}
          onConfirm={() => reset.mutateAsync()}
        >
          <Button danger icon={<RiRefreshLine size={16} />} loading={reset.isPending}>
            重置密钥
          </Button>
        </Popconfirm>
      </Space>
    </Card>
  );
}
