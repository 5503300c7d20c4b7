import {
  type IllegalFlagRow,
  IllegalSourceLabel,
  IllegalSources,
  IllegalStatusLabel,
  TunnelStatus,
} from "@burrow/contract";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Form, Typography } from "antd";
import { useState } from "react";
import { FormModal } from "@/components/FormModal";
import { ListTableCard } from "@/components/ListTableCard";
import { ReasonField } from "@/components/ReasonField";
import { SearchCard } from "@/components/SearchCard";
import { IdFilter, SelectFilter } from "@/components/SearchFields";
import { useUrlFilters } from "@/hooks/useUrlFilters";
import { feedback } from "@/lib/feedback";
import { labelOptions, valueOptions } from "@/lib/options";
import { illegalFlagColumns } from "../pages/IllegalTunnelPage.columns";
import { handleIllegal, illegalListQuery, tunnelsKeys } from "../tunnels.api";

const FILTERS = { status: "int", source: "text", uid: "int", node_id: "int", tun_id: "int" } as const;

/** Flagged tunnels: filters in the URL, ban (locks the tunnel with a reason) or clear. */
export function IllegalFlagList({ canWrite }: { canWrite: boolean }) {
  const queryClient = useQueryClient();
  const [form] = Form.useForm();
  const { filters, search, reset, pagination } = useUrlFilters(FILTERS, form);
  const { data, isFetching } = useQuery(
    illegalListQuery({ ...filters, source: filters.source as IllegalFlagRow["source"] | undefined }),
  );
  const [banning, setBanning] = useState<IllegalFlagRow | null>(null);

  const refresh = () => queryClient.invalidateQueries({ queryKey: tunnelsKeys.all });
  const clear = useMutation({
    mutationFn: (row: IllegalFlagRow) => handleIllegal({ id: row.id, action: "clear" }),
    onSuccess: async (_, row) => {
      feedback.success(row.tun_status === TunnelStatus.Deleted ? "记录已关闭" : "已忽略");
      await refresh();
    },
  });

  const columns = illegalFlagColumns({
    canWrite,
    onBan: setBanning,
    onClear: (row) => clear.mutateAsync(row).catch(() => undefined),
  });

  return (
    <div className="tab-stack">
      <SearchCard form={form} onFinish={search} onReset={reset}>
        <SelectFilter name="status" label="处理状态" width={110} options={labelOptions(IllegalStatusLabel)} />
        <SelectFilter
          name="source"
          label="来源"
          width={110}
          options={valueOptions(IllegalSources, IllegalSourceLabel)}
        />
        <IdFilter name="uid" label="UID" width={110} />
        <IdFilter name="tun_id" label="隧道 ID" width={110} />
      </SearchCard>
      <ListTableCard columns={columns} data={data} loading={isFetching} pagination={pagination} />
      <FormModal<{ banned_reason: string }>
        open={banning !== null}
        title="封禁隧道"
        okText="封禁"
        initialValues={{ banned_reason: banning?.reason ?? "" }}
        successText="隧道已锁定"
        onSubmit={async (v) => {
          if (!banning) return;
          await handleIllegal({ id: banning.id, action: "ban", banned_reason: v.banned_reason.trim() });
          await refresh();
        }}
        onClose={() => setBanning(null)}
      >
        <Typography.Paragraph type="secondary">
          锁定隧道「{banning?.tun_name}」（#{banning?.tun_id}），该隧道会立即断开，用户会看到以下原因。
        </Typography.Paragraph>
        <ReasonField name="banned_reason" label="锁定原因" />
      </FormModal>
    </div>
  );
}
