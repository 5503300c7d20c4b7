import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Alert, Button, Popconfirm } from "antd";
import { feedback } from "@/lib/feedback";
import { formatTime } from "@/lib/format";
import { cancelDeletion, myDeletionQuery } from "../leaving.api";

/**
 * The console's banner while the account's deletion is pending: when the data will be erased, and
 * the cancel (signing in during the cool-off is how a customer who changed their mind gets here).
 */
export function DeletionBanner() {
  const queryClient = useQueryClient();
  const { data: pending } = useQuery(myDeletionQuery());
  const cancel = useMutation({
    mutationFn: cancelDeletion,
    onSuccess: async () => {
      feedback.success("已撤销注销申请，停用的隧道已重新启用");
      await queryClient.invalidateQueries({ queryKey: ["leaving"] });
      await queryClient.invalidateQueries({ queryKey: ["tunnels"] });
    },
  });
  if (!pending) return null;
  return (
    <Alert
      type="warning"
      showIcon
      banner
      data-testid="deletion-banner"
      message={`账号已申请注销，将于 ${formatTime(pending.executes_at)} 删除个人数据；在此之前可以撤销。`}
      action={
        <Popconfirm
          title="撤销注销申请？"
          description="申请时停用的隧道会重新启用。"
          okText="撤销注销"
          cancelText="取消"
          onConfirm={() => cancel.mutateAsync()}
        >
          <Button size="small" loading={cancel.isPending}>
            撤销注销
          </Button>
        </Popconfirm>
      }
    />
  );
}
