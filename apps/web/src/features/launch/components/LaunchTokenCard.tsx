import { RiDeleteBinLine, RiRefreshLine } from "@remixicon/react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Button, Card, Popconfirm, Skeleton, Space, Typography } from "antd";
import { CopyButton } from "@/components/CopyButton";
import { feedback } from "@/lib/feedback";
import { maskSecret } from "@/lib/format";
import { launchKeys, launchTokenQuery, revokeLaunchToken, rotateLaunchToken } from "../launch.api";

/** The personal centre's launch token: masked, copy, 更换 (rotate) and 撤销 (revoke), both confirmed. */
export function LaunchTokenCard() {
  const queryClient = useQueryClient();
  const { data, isPending } = useQuery(launchTokenQuery());
  // the commands on every page embed the token: refetch them all
  const done = (text: string) => async () => {
    await queryClient.invalidateQueries({ queryKey: launchKeys.all });
    feedback.success(text);
  };
  const rotate = useMutation({
    mutationFn: rotateLaunchToken,
    onSuccess: done("启动令牌已更换，请在设备上重新运行安装命令"),
  });
  const revoke = useMutation({ mutationFn: revokeLaunchToken, onSuccess: done("启动令牌已撤销") });
  const token = data?.token ?? null;

  return (
    <Card title="启动令牌" id="launch-token">
      <Typography.Paragraph type="secondary">
        一键启动的安装命令用它获取 frpc 配置。更换或撤销后，使用旧令牌安装的设备会在下次启动时停止并提示重新安装。
      </Typography.Paragraph>
      {isPending ? (
        <Skeleton active paragraph={{ rows: 1 }} />
      ) : (
        <Space orientation="vertical" size={12}>
          {token ? (
            <Typography.Text code data-testid="launch-token">
              {maskSecret(token)}
            </Typography.Text>
          ) : (
            <Typography.Text type="secondary">
              尚未生成：打开隧道详情或客户端下载页的“一键启动”时自动生成。
            </Typography.Text>
          )}
          <Space wrap>
            {token ? <CopyButton text={token}>复制令牌</CopyButton> : null}
            <Popconfirm
              title={token ? "更换启动令牌？" : "生成启动令牌？"}
              description={token ? "使用旧令牌安装的设备将在下次启动时停止。" : undefined}
              okText={token ? "更换" : "生成"}
              cancelText="取消"
              okButtonProps={{ danger: Boolean(token) }}
              onConfirm={() => rotate.mutateAsync()}
            >
              <Button icon={<RiRefreshLine size={16} />} loading={rotate.isPending}>
                {token ? "更换令牌" : "生成令牌"}
              </Button>
            </Popconfirm>
            {token ? (
              <Popconfirm
                title="撤销启动令牌？"
                description="所有一键启动安装的设备将在下次启动时停止。"
                okText="撤销"
                cancelText="取消"
                okButtonProps={{ danger: true }}
                onConfirm={() => revoke.mutateAsync()}
              >
                <Button danger icon={<RiDeleteBinLine size={16} />} loading={revoke.isPending}>
                  撤销令牌
                </Button>
              </Popconfirm>
            ) : null}
          </Space>
        </Space>
      )}
    </Card>
  );
}
