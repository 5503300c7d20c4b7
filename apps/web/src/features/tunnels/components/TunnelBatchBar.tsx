import { TunnelBatchActionLabel, type TunnelBatchActions, type TunnelView } from "@burrow/contract";
import { useMutation } from "@tanstack/react-query";
import { Alert, Button, Popconfirm, Space } from "antd";
import { feedback } from "@/lib/feedback";
import { batchTunnels } from "../tunnels.api";

type Action = (typeof TunnelBatchActions)[number];

export interface TunnelBatchBarProps {
  selected: TunnelView[];
  /** after the call: clear the selection, refresh the list */
  onDone: () => Promise<unknown> | undefined;
}

/**
 * 我的隧道's batch actions on the selected tunnels: one call; each tunnel is checked as alone, and
 * the ones refused (a locked tunnel, …) are named with the reason.
 */
export function TunnelBatchBar({ selected, onDone }: TunnelBatchBarProps) {
  const run = useMutation({
    mutationFn: (action: Action) => batchTunnels({ tun_ids: selected.map((t) => t.tun_id), action }),
    onSuccess: async (r, action) => {
      const label = TunnelBatchActionLabel[action];
      const name = (id: number) => selected.find((t) => t.tun_id === id)?.tun_name ?? `#${id}`;
      if (r.failed.length)
        feedback.warning(
          `已${label} ${r.done.length} 条；${r.failed.length} 条未${label}：${r.failed.map((f) => `${name(f.tun_id)}（${f.msg}）`).join("，")}`,
        );
      else feedback.success(`已${label} ${r.done.length} 条隧道`);
      await onDone();
    },
  });
  if (!selected.length) return null;
  const busy = (a: Action) => run.isPending && run.variables === a;
  return (
    <Alert
      type="info"
      style={{ marginBottom: 12 }}
      message={
        <Space wrap>
          <span>已选择 {selected.length} 条隧道</span>
          <Button size="small" loading={busy("enable")} onClick={() => run.mutate("enable")}>
            批量启用
          </Button>
          <Button size="small" loading={busy("disable")} onClick={() => run.mutate("disable")}>
            批量停用
          </Button>
          <Popconfirm
            title={`删除选中的 ${selected.length} 条隧道？`}
            description="删除后远程端口或域名会被释放。"
            okText="删除"
            cancelText="取消"
            okButtonProps={{ danger: true }}
            onConfirm={() => run.mutateAsync("delete").catch(() => undefined)}
          >
            <Button size="small" danger loading={busy("delete")}>
              批量删除
            </Button>
          </Popconfirm>
        </Space>
      }
    />
  );
}
